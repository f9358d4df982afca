import Foundation

/// SIGHUP, SIGINT and SIGTERM, caught so that the UI's loop (not the handler) gives the
/// terminal back and exits with 128 + the signal. The handler only writes the signal's number
/// to a pipe (``SignalPipe``), which the terminal's readiness waits on; the loop reads it then.
///
/// ```swift
/// TerminationSignals.install()
/// if let signal = TerminationSignals.received() { exit(128 + signal) }
/// ```
enum TerminationSignals {
    static let caught: [Int32] = [SIGHUP, SIGINT, SIGTERM]

    /// Created before any handler is installed, so the handler never runs its initialiser.
    static let pipe = SignalPipe()

    static func install() {
        _ = pipe
        for signalNumber in caught {
            signal(signalNumber) { received in TerminationSignals.pipe.note(received) }
        }
    }

    /// The first signal caught since the last call, if any.
    static func received() -> Int32? { pipe.take() }
}
