import Foundation
import MigrationCore
import MigrationTestSupport

/// The built binary's `plan --watch`, running while a test changes what it watches: its
/// standard output and error are read as they come. The process is killed when the value
/// goes, so that it never outlives its test.
///
/// ```swift
/// let watch = try await WatchingCommand(["plan", "--watch", "--store", "state.json"], in: folder)
/// #expect(await waitUntil { watch.stdout.contains("pending") })
/// ```
final class WatchingCommand {
    private let running: Executable.Running

    init(_ arguments: [String], in folder: URL? = nil) async throws {
        running = try await Executable.start(arguments, in: folder)
    }

    var pid: pid_t { running.pid }
    var stdout: String { running.stdoutSoFar }
    var stderr: String { running.stderrSoFar }
    /// The complete lines written to standard output so far.
    var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
    /// The time stamp lines that head each table (`2026-11-27 19:42:03 …`), in order.
    var headlines: [String] { lines.filter { $0.contains(#/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d /#) } }

    /// Whether the process is still running.
    var isRunning: Bool { running.isRunning }

    /// Sends `signal`, and waits (``hangDeadline`` at most) for the end: its exit status, `nil` when it
    /// did not end or a signal ended it.
    func end(with signal: Int32) async -> Int32? {
        running.send(signal)
        guard let result = await running.finish(within: hangDeadline), result.signal == nil else { return nil }
        return result.status
    }

    /// Kills the process, if it still runs; its task reaps it.
    deinit {
        if running.isRunning { running.send(SIGKILL) }
    }
}
