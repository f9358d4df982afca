import Foundation
import MigrationCore
import Testing
@testable import MigrationExplorer

/// The terminal UI asks before a simulation runs a manifest's real commands.
@Suite("Terminal UI: sandbox runs of commands")
struct TUISandboxRunTests {
    static let size = Size(width: 100, height: 30)

    /// Runs `body` on a thread of its own: a run waits for its commands, which run on the
    /// concurrency pool, so it must not hold one of the pool's threads.
    func onOwnThread(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            body()
            done.signal()
        }
        done.wait()
    }

    @Test func aSimulationOverARealStoreAsksBeforeRunningCommandsAndSaysTheyRunForReal() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("m.json")
        try manifest.write(#"{ "appVersion": "1.0", "migrations": [ { "version": "0.9", "title": "t", "run": "echo $MIGRATION_SANDBOX > ran" } ] }"#)
        let explorer = try Explorer(app: ExplorerApp(manifestAt: manifest.path),
                                    options: ExplorerOptions(from: "0.5", store: .jsonFile(folder.appendingPathComponent("s.json").path)))
        let ran = folder.appendingPathComponent("ran")
        let session = Locked(Session(explorer: explorer))
        session.value.press(.runPending, size: Self.size)
        let screen = Render.screen(session.value.state, size: Self.size, unicode: true).text
        #expect(screen.contains("The commands run for real and only"))
        #expect(screen.contains("the records are simulated"))
        session.value.handle(.character("n"), size: Self.size)
        #expect(!FileManager.default.fileExists(atPath: ran.path))
        session.value.press(.runPending, size: Self.size)
        onOwnThread { session.value.handle(.character("y"), size: Self.size) }
        #expect(try ran.read() == "1\n")
    }

    @Test func theDemoSandboxStillRunsWithoutAQuestion() throws {
        let session = Locked(Session(explorer: try Explorer(app: DemoApp.make(), options: ExplorerOptions())))
        onOwnThread { session.value.press(.runPending, size: Self.size) }
        #expect(session.value.state.lastReport != nil)
    }
}

/// A value handed to another thread and back; the caller waits in between.
final class Locked<Value>: @unchecked Sendable {
    var value: Value
    init(_ value: Value) { self.value = value }
}
