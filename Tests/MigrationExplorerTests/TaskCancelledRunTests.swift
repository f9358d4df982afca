import Foundation
import MigrationCore
import MigrationTestSupport
import Testing
@testable import MigrationExplorer
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An app that awaits `Explorer.run` in a task and cancels that task stops the run as Ctrl-C
/// does: the running command's group is ended, nothing after it runs, and the next run is not
/// touched by the cancellation.
@Suite("Runs cancelled through their task")
struct TaskCancelledRunTests {
    /// A manifest whose 0.1 records its shell's pid, then sleeps for `sleep` seconds; 0.2 logs.
    func explorer(in folder: URL, sleep seconds: Int) throws -> Explorer {
        let manifest = folder.appendingPathComponent("m.json")
        try manifest.write("""
            { "appVersion": "1.0", "migrations": [
              { "version": "0.1", "title": "Slow", "run": "echo $$ > pid; sleep \(seconds)" },
              { "version": "0.2", "title": "After", "run": "echo ran >> after" } ] }
            """)
        return try Explorer(app: ExplorerApp(manifestAt: manifest.path),
                            options: ExplorerOptions(store: .jsonFile(folder.appendingPathComponent("s.json").path)))
    }

    /// Runs the manifest in `folder` (its 0.1 sleeping 30 s) in a task of its own, cancels
    /// that task once the command runs, and awaits the report; with the command's shell pid.
    func cancelledRun(in folder: URL) async throws -> (report: RunReport, shell: pid_t) {
        try await promptly { try await cancelledRunNow(in: folder) }
    }

    private func cancelledRunNow(in folder: URL) async throws -> (report: RunReport, shell: pid_t) {
        let explorer = try explorer(in: folder, sleep: 30)
        let pidFile = folder.appendingPathComponent("pid")
        let run = Task { try await explorer.run() }
        #expect(await waitUntil(timeout: 60) { !pidFile.textIfAny.isEmpty })
        let shell = try #require(pid_t(pidFile.textIfAny.trimmingCharacters(in: .whitespacesAndNewlines)))
        run.cancel()
        return (try await run.value, shell)
    }

    @Test func cancellingTheTaskThatAwaitsARunEndsItsRunningCommand() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (report, shell) = try await cancelledRun(in: folder)
        #expect(!isAlive(shell), "the cancelled run's command still runs")
        #expect(report.steps.map(\.outcome) == [.cancelled], "\(report.steps)")
        let state = try FileMigrationStore(url: folder.appendingPathComponent("s.json")).load()
        #expect(state.history.isEmpty, "the cancelled command is recorded: \(state.history)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("after").path))
    }

    @Test func aRunCancelledThroughItsTaskLeavesTheNextRunsCommandsAlone() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try await cancelledRun(in: folder)
        let next = try await explorer(in: folder, sleep: 0).run()
        #expect(next.steps.map(\.outcome) == [.succeeded, .succeeded], "\(next.steps)")
        #expect(folder.appendingPathComponent("after").textIfAny == "ran\n")
    }
}
