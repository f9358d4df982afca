import Foundation
import MigrationCore
import Testing
@testable import MigrationExplorer

/// The terminal UI on a real store it cannot write: it says so in the header and never offers
/// or starts a run or a reset (the real store itself is exercised in `UnwritableStoreTests`).
@Suite("Terminal UI on a store that cannot be written")
struct TUIUnwritableStoreTests {
    static let size = Size(width: 120, height: 24)

    func session() async throws -> Session {
        var session = await Session.opened(explorer: try Explorer(app: DemoApp.make(), options: ExplorerOptions()))
        session.state.isSandbox = false
        session.state.unwritableStore = "state.json: cannot be written (state.json is on a read-only file system)"
        return session
    }

    @Test func theFooterOffersNoRunOrResetOnAStoreThatCannotBeWritten() async throws {
        let session = try await session()
        let footer = Footer.hints(session.state, glyphs: Glyphs(unicode: true)).map(\.text)
        #expect(!footer.contains("r run") && !footer.contains("x reset"), "\(footer)")
        #expect(footer.contains("d dry-run"))
        #expect(Render.screen(session.state, size: Self.size, unicode: true).text.contains("READ-ONLY STORE: "))
    }

    @Test(arguments: [Action.runPending, .reset])
    func theKeysOfRunAndResetAskNothingAndSayWhy(_ action: Action) async throws {
        var session = try await session()
        await session.press(action, size: Self.size)
        #expect(session.state.overlay == nil, "it asks: \(String(describing: session.state.overlay))")
        #expect(session.state.message?.text.contains("read-only file system") == true)
        #expect(session.state.lastReport == nil)
    }

    @Test func writingTheSimulatedDeviceToAStoreThatCannotBeWrittenAsksNothingAndSaysWhy() async throws {
        var session = try await session()
        session.state.isSandbox = true
        session.state.unwritableStore = nil
        session.state.writableDevice = "a device at 0.9"
        session.state.unwritableRealStore = "state.json: cannot be written (state.json is on a read-only file system)"
        await session.press(.writeFrom, size: Self.size)
        #expect(session.state.overlay == nil, "it asks: \(String(describing: session.state.overlay))")
        #expect(session.state.message?.text == "Not written: state.json: cannot be written (state.json is on a read-only file system)")
    }
}
