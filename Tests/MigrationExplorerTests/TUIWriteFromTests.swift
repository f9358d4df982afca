import Foundation
import MigrationCore
import Testing
@testable import MigrationExplorer

/// "Set the real store to the 'from' device": asks first, writes the device's marks through
/// the core, then plays the real store.
@Suite("Terminal UI: writing the from device to a real store")
struct TUIWriteFromTests {
    static let size = Size(width: 100, height: 30)
    let folder: URL

    init() throws {
        folder = try makeTemporaryFolder()
    }

    func session(store: StoreLocation?) async throws -> Session {
        await Session.opened(explorer: try Explorer(app: DemoApp.make(dataFolder: folder), options: ExplorerOptions(store: store)))
    }

    func screen(_ session: Session) -> String {
        Render.screen(session.state, size: Self.size, unicode: true).text
    }

    /// A preferences plist of a device that already runs 1.0 (build 100).
    func upgradedPlist() throws -> URL {
        let url = folder.appendingPathComponent("com.example.notes.plist")
        try PropertyListMigrationStore(url: url).save(MigrationState(
            lastMigratedVersion: "1.0", lastMigratedBuild: "100", lastAppVersion: "1.0", lastAppBuild: "100"))
        return url
    }

    @Test func asksFirstAndNoIsTheDefault() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let plist = try upgradedPlist()
        let before = try Data(contentsOf: plist)
        var session = try await session(store: .defaultsPlist(plist.path))
        await session.press(.setFrom, size: Self.size)
        await session.handle(.control("u"), size: Self.size)
        await session.type("0.8 (90)", size: Self.size)
        for refusal: Key in [.enter, .escape, .character("n")] {
            await session.press(.writeFrom, size: Self.size)
            #expect(screen(session).contains("Are you sure?"))
            #expect(screen(session).contains("Write a device at 0.8 (build 90) to the real store"))
            #expect(screen(session).contains(plist.lastPathComponent.prefix(17)))
            await session.handle(refusal, size: Self.size)
            #expect(session.state.overlay == nil)
            #expect(session.state.message?.text == "Cancelled")
        }
        #expect(try Data(contentsOf: plist) == before)
        #expect(session.explorer.isSandbox)
    }

    @Test func yesWritesTheDeviceAndTheRealStoreThenReplaysTheUpgrade() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let plist = try upgradedPlist()
        var session = try await session(store: .defaultsPlist(plist.path))
        await session.press(.setFrom, size: Self.size)
        await session.handle(.control("u"), size: Self.size)
        await session.type("0.8 (90)", size: Self.size)
        await session.press(.writeFrom, size: Self.size)
        await session.handle(.character("y"), size: Self.size)

        let recorded = try PropertyListMigrationStore(url: plist).load()
        #expect([recorded.lastMigratedVersion, recorded.lastAppVersion, recorded.lastMigratedBuild, recorded.lastAppBuild]
            == ["0.8", "0.8", "90", "90"])
        #expect(!session.explorer.isSandbox)
        #expect(session.state.message?.text.hasPrefix("Wrote a device at 0.8 (build 90) to \(plist.path)") == true)
        #expect(screen(session).contains("REAL STORE"))
        let plan = try #require(session.state.plan)
        #expect(plan.pending.map(\.migration.declared) == ["0.9", "0.10", "1.0", "95", "100"])
        #expect(plan.hooks.map(\.fires) == [true, true])
    }

    @Test("without a device to write, it says why and asks nothing", arguments: [false, true])
    func nothingToWrite(withRealStore: Bool) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let store: StoreLocation? = withRealStore ? .defaultsPlist(try upgradedPlist().path) : nil
        var session = try await session(store: store)
        await session.press(.writeFrom, size: Self.size)
        #expect(session.state.overlay == nil)
        let expected = withRealStore ? "No simulated device to write: press f" : "No real store to write to"
        #expect(session.state.message?.text.hasPrefix(expected) == true)
    }
}
