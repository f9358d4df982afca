import Foundation

/// SIGWINCH, followed: ncurses' own handler still runs (it makes the next key read a resize),
/// then a byte on a pipe wakes the terminal's readiness, so that a resize is drawn at once
/// although the loop does not poll.
///
/// ```swift
/// ResizeSignal.install()   // after newterm, which installs ncurses' handler
/// ```
enum ResizeSignal {
    /// Created before the handler is installed, so the handler never runs its initialiser.
    static let pipe = SignalPipe()
    /// ncurses' handler, called first.
    // Safe: written once, before the handler that reads it is installed.
    nonisolated(unsafe) private static var previous: (@convention(c) (Int32) -> Void)?

    static func install() {
        _ = pipe
        var current = sigaction()
        sigaction(SIGWINCH, nil, &current)
        #if canImport(Glibc)
        let handler = current.__sigaction_handler.sa_handler
        #else
        let handler = current.__sigaction_u.__sa_handler
        #endif
        // SIG_DFL and SIG_IGN are 0 and 1, not functions.
        previous = handler.flatMap { unsafeBitCast($0, to: Int.self) > 1 ? $0 : nil }
        signal(SIGWINCH) { received in
            ResizeSignal.previous?(received)
            ResizeSignal.pipe.note(received)
        }
    }
}
