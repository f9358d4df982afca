import Foundation
import MigrationCore
import MigrationTestSupport
import Testing
@testable import MigrationExplorer

/// Runs of different explorers in one process (an app's tool running two stores, or tests in
/// parallel) do not wait for each other: a long command in one run does not hold up another.
@Suite("Runs of two explorers in one process")
struct ConcurrentRunsTests {
    func explorer(in folder: URL, run command: String) throws -> Explorer {
        let manifest = folder.appendingPathComponent("m.json")
        try manifest.write("""
            { "appVersion": "1.0", "migrations": [ { "version": "0.1", "title": "Step", "run": "\(command)" } ] }
            """)
        return try Explorer(app: ExplorerApp(manifestAt: manifest.path),
                            options: ExplorerOptions(store: .jsonFile(folder.appendingPathComponent("s.json").path)))
    }

    @Test func aLongCommandInOneRunDoesNotHoldUpAnotherExplorersRun() async throws {
        try await promptly { try await longAndQuickRuns() }
    }

    private func longAndQuickRuns() async throws {
        let (slowFolder, quickFolder) = (try makeTemporaryFolder(), try makeTemporaryFolder())
        defer { for folder in [slowFolder, quickFolder] { try? FileManager.default.removeItem(at: folder) } }
        let slow = try explorer(in: slowFolder, run: "echo $$ > pid; sleep 600")
        let events = Locked<[String]>([])
        let slowRun = Task { try await slow.run { event in events.withLock { $0.append("\(event)") } } }
        defer { slowRun.cancel() }
        #expect(await waitUntil(timeout: 60) { !slowFolder.appendingPathComponent("pid").textIfAny.isEmpty },
                "the first run's events: \(events.withLock { $0 })")

        let quick = try explorer(in: quickFolder, run: "echo ran > done")
        let quickRun = Task { try await quick.run() }
        #expect(await waitUntil(timeout: 60) { quickFolder.appendingPathComponent("done").textIfAny == "ran\n" },
                "the second run waited for the first one's command")
        slowRun.cancel()
        #expect(try await quickRun.value.steps.map(\.outcome) == [.succeeded])
        _ = try await slowRun.value
    }
}
