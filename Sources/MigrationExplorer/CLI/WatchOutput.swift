import Foundation
import MigrationCore

/// What `plan --watch` writes, each piece whole: SIGINT, SIGTERM and SIGHUP end the process
/// with exit status 0 (``ExitStatus/outputLost`` if standard output was lost), between two
/// writes and never in the middle of one.
///
/// ```swift
/// let output = WatchOutput()
/// output.writing { StandardStreams.print(table) }   // Ctrl-C now waits for the table's end
/// ```
final class WatchOutput: @unchecked Sendable {
    /// Held during each write, and by a signal until the process is gone.
    private let lock = RecursiveLock()
    // Safe: `lock` is Sendable; the sources are set once, by `init`, and never touched again
    // (they are kept only so that they stay installed).
    private let sources: [DispatchSourceSignal]

    /// Takes over the signals that end the watch.
    init() {
        let lock = lock
        sources = [SIGINT, SIGTERM, SIGHUP].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                lock.withLock { () -> Never in Program.exit(ExitStatus.success.rawValue) }
            }
            source.resume()
            return source
        }
    }

    /// Runs `body`, which writes one piece of output, with no signal ending the process meanwhile.
    func writing<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        try lock.withLock { () throws(Failure) -> Result in
            defer { fflush(nil) }
            return try body()
        }
    }
}
