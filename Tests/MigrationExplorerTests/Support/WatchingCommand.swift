import Foundation
import MigrationCore
import MigrationTestSupport

/// The built binary's `plan --watch`, running while a test changes what it watches: its
/// standard output and error are read as they come, on threads of their own. The process is
/// killed when the value goes, so that it never outlives its test.
///
/// ```swift
/// let watch = try WatchingCommand(["plan", "--watch", "--store", "state.json"], in: folder)
/// #expect(waitUntil { watch.stdout.contains("pending") })
/// ```
final class WatchingCommand {
    private let running: Executable.Running
    private let output = Locked(Data())
    private let errors = Locked(Data())

    init(_ arguments: [String], in folder: URL? = nil) throws {
        running = try Executable.start(arguments, in: folder)
        Self.collect(running.stdout, into: output)
        Self.collect(running.stderr, into: errors)
    }

    var pid: pid_t { running.process.processIdentifier }
    var stdout: String { String(decoding: output.value, as: UTF8.self) }
    var stderr: String { String(decoding: errors.value, as: UTF8.self) }
    /// The complete lines written to standard output so far.
    var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
    /// The time stamp lines that head each table (`2026-11-27 19:42:03 …`), in order.
    var headlines: [String] { lines.filter { $0.contains(#/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d /#) } }

    /// Whether the process is still running.
    var isRunning: Bool { running.process.isRunning }

    /// Sends `signal`, and waits (30 s at most) for the end: its exit status, `nil` when it
    /// did not end or a signal ended it.
    func end(with signal: Int32) -> Int32? {
        kill(pid, signal)
        guard waitUntil({ !running.process.isRunning }), running.process.terminationReason == .exit else { return nil }
        return running.process.terminationStatus
    }

    /// Kills the process, if it still runs, and reaps it.
    deinit {
        if running.process.isRunning { kill(pid, SIGKILL) }
        running.process.waitUntilExit()
    }

    private static func collect(_ pipe: Pipe, into buffer: Locked<Data>) {
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread {
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { return }
                buffer.withLock { $0.append(chunk) }
            }
        }
    }
}
