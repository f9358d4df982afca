import Foundation
import MigrationCore
import Testing
@testable import MigrationExplorer

/// The reset prompt says exactly what the reset then does (``Explorer/reset(onWait:)``).
@Suite("Terminal UI: the reset prompt")
struct TUIResetPromptTests {
    static let size = Size(width: 80, height: 24)

    func prompt(_ session: Session) -> String {
        Render.screen(session.state, size: Self.size, unicode: true).text
            .components(separatedBy: "\n").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " │")) }.joined(separator: " ")
    }

    @Test func inTheSandboxItSaysTheDeviceItGoesBackTo() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let explorer = try Explorer(app: DemoApp.make(dataFolder: folder), options: ExplorerOptions())
        var session = await Session.opened(explorer: explorer)
        let before = session.state.plan?.pending.map(\.migration.declared)
        await session.press(.runPending, size: Self.size)
        await session.press(.reset, size: Self.size)
        let text = prompt(session)
        #expect(text.contains("Reset the sandbox? It goes back to a device at 0.8 (build 90)"), "\(text)")
        #expect(!text.contains("four marks") && !text.contains("every migration up to the app"), "a sandbox is not emptied: \(text)")
        await session.handle(.character("y"), size: Self.size)
        #expect(session.state.plan?.pending.map(\.migration.declared) == before, "the pending migrations are those of the device at 0.8 again")
    }

    @Test func onARealStoreThatRecordsNothingItSaysThereIsNothingToForget() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("m.json")
        try manifest.write(#"{ "appVersion": "1.0", "migrations": [ { "version": "0.1", "title": "One", "run": "true" } ] }"#)
        let store = ExplorerOptions(store: .jsonFile(folder.appendingPathComponent("state.json").path))
        var session = await Session.opened(explorer: try Explorer(app: ExplorerApp(manifestAt: manifest.path), options: store))
        await session.press(.reset, size: Self.size)
        #expect(prompt(session).contains("records no mark: nothing to forget"), "\(prompt(session))")
    }

    @Test func onARealStoreItSaysTheMarksGoAndAResetRecordIsAdded() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("state.json")
        let manifest = folder.appendingPathComponent("m.json")
        try manifest.write(#"{ "appVersion": "1.0", "migrations": [ { "version": "0.1", "title": "One", "run": "true" } ] }"#)
        var session = await Session.opened(explorer: try Explorer(app: ExplorerApp(manifestAt: manifest.path), options: ExplorerOptions(store: .jsonFile(store.path))))
        await session.press(.runPending, size: Self.size)
        await session.handle(.character("y"), size: Self.size)
        await session.handle(.escape, size: Self.size)
        await session.press(.reset, size: Self.size)
        let text = prompt(session)
        #expect(text.contains("It forgets last migrated version 0.1, last app version 1.0"), "the marks it forgets, as reset prints them: \(text)")
        #expect(text.contains("a reset record closes its history, so every migration up to 1.0 runs again"), "\(text)")
        #expect(!text.contains("the history stays"), "earlier records no longer count after a reset: \(text)")
        await session.handle(.character("y"), size: Self.size)
        let state = try FileMigrationStore(url: store).load()
        #expect(state.hasNoMarks && state.history.last?.title == "reset", "\(state)")
        #expect(session.state.plan?.pending.map(\.migration.declared) == ["0.1"])
    }
}
