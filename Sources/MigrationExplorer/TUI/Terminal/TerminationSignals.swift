import Foundation

/// SIGHUP, SIGINT and SIGTERM, caught so that the UI's loop (not the handler) gives the
/// terminal back and exits with 128 + the signal. The handler only writes the signal's number
/// to a pipe, which is async-signal-safe; the loop reads it between events.
///
/// ```swift
/// TerminationSignals.install()
/// if let signal = TerminationSignals.received() { exit(128 + signal) }
/// ```
enum TerminationSignals {
    static let caught: [Int32] = [SIGHUP, SIGINT, SIGTERM]

    /// The pipe's read and write ends, both non-blocking. Created before any handler is
    /// installed, so the handler never runs its initialiser.
    private static let pipeEnds: (read: Int32, write: Int32) = {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return (-1, -1) }
        for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        return (ends[0], ends[1])
    }()

    static func install() {
        _ = pipeEnds
        for signalNumber in caught {
            signal(signalNumber) { received in
                var byte = UInt8(truncatingIfNeeded: received)
                _ = write(TerminationSignals.pipeEnds.write, &byte, 1)
            }
        }
    }

    /// The first signal caught since the last call, if any.
    static func received() -> Int32? {
        var byte: UInt8 = 0
        return read(pipeEnds.read, &byte, 1) == 1 ? Int32(byte) : nil
    }
}
