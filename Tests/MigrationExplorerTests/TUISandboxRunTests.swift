import Foundation
import MigrationCore
import Testing
@testable import MigrationExplorer

/// The terminal UI asks before a simulation runs a manifest's real commands.
@Suite("Terminal UI: sandbox runs of commands")
struct TUISandboxRunTests {
    static let size = Size(width: 100, height: 30)

    @Test func aSimulationOverARealStoreAsksBeforeRunningCommandsAndSaysTheyRunForReal() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("m.json")
        try manifest.write(#"{ "appVersion": "1.0", "migrations": [ { "version": "0.9", "title": "t", "run": "echo $MIGRATION_SANDBOX > ran" } ] }"#)
        let explorer = try Explorer(app: ExplorerApp(manifestAt: manifest.path),
                                    options: ExplorerOptions(from: try Version("0.5"), store: .jsonFile(folder.appendingPathComponent("s.json").path)))
        let ran = folder.appendingPathComponent("ran")
        var session = await Session.opened(explorer: explorer)
        await session.press(.runPending, size: Self.size)
        let screen = Render.screen(session.state, size: Self.size, unicode: true).text
        #expect(screen.contains("The commands run for real and only"))
        #expect(screen.contains("are simulated"))
        await session.handle(.character("n"), size: Self.size)
        #expect(!FileManager.default.fileExists(atPath: ran.path))
        await session.press(.runPending, size: Self.size)
        await session.handle(.character("y"), size: Self.size)
        #expect(try ran.read() == "1\n")
    }

    @Test func aSimulationThatRunsNoBodyAsksNothing() async throws {
        let ran = Locked(false)
        var registry = MigrationRegistry(appName: "Recipes")
        registry.migrate(toVersion: "2.0", title: "Real work") { _ in ran.withLock { $0 = true } }
        let app = ExplorerApp(registry: registry, appVersion: "2.0", sandboxRunsForReal: .appCode)
        var session = await Session.opened(explorer: try Explorer(app: app, options: ExplorerOptions(policy: .baseline)))
        await session.press(.runPending, size: Self.size)
        guard case .report(let report) = session.state.overlay else {
            Issue.record("a baseline of a fresh install runs none of the app's code, so it asks nothing: \(String(describing: session.state.overlay))")
            return
        }
        #expect(report.steps.map(\.outcome) == [.baselined])
        #expect(!ran.value)
    }

    @Test func aSimulationOfAnAppsOwnCodeAsksBeforeRunningItAndSaysItRunsForReal() async throws {
        let ran = Locked(false)
        var registry = MigrationRegistry(appName: "Recipes")
        registry.migrate(toVersion: "2.0", title: "Real work") { _ in ran.withLock { $0 = true } }
        let app = ExplorerApp(registry: registry, appVersion: "2.0", sandboxRunsForReal: .appCode)
        var session = await Session.opened(explorer: try Explorer(app: app, options: ExplorerOptions()))
        await session.press(.runPending, size: Self.size)
        let screen = Render.screen(session.state, size: Self.size, unicode: true).text
        #expect(screen.contains("Run the pending migrations? The migrations' code runs for real and only"), "\(screen)")
        await session.handle(.character("n"), size: Self.size)
        #expect(!ran.value)
        await session.press(.runPending, size: Self.size)
        await session.handle(.character("y"), size: Self.size)
        #expect(ran.value)
    }

    @Test func theDemoSandboxStillRunsWithoutAQuestion() async throws {
        var session = await Session.opened(explorer: try Explorer(app: DemoApp.make(), options: ExplorerOptions()))
        await session.press(.runPending, size: Self.size)
        #expect(session.state.lastReport != nil)
    }
}
