import Foundation

/// A pipe a signal handler writes a byte to (`write` is async-signal-safe), for a thread to
/// see the signal by waiting on its read end; both ends are non-blocking.
///
/// ```swift
/// static let pipe = SignalPipe()
/// signal(SIGWINCH) { _ in pipe.note(SIGWINCH) }
/// ```
struct SignalPipe: Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    /// A new pipe; both ends are -1 when none could be made (the signal then goes unseen).
    init() {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            (readEnd, writeEnd) = (-1, -1)
            return
        }
        for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        (readEnd, writeEnd) = (ends[0], ends[1])
    }

    /// Writes `signal`'s number: from a handler.
    func note(_ signal: Int32) {
        var byte = UInt8(truncatingIfNeeded: signal)
        _ = write(writeEnd, &byte, 1)
    }

    /// The first signal noted and not yet taken, if any.
    func take() -> Int32? {
        var byte: UInt8 = 0
        return read(readEnd, &byte, 1) == 1 ? Int32(byte) : nil
    }

    /// Takes every signal noted.
    func drain() { while take() != nil {} }
}
