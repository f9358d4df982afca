import Foundation
import MigrationCore
import Testing
@testable import MigrationExplorer

/// `m`: every upgrade path of the notes example as a grid; Enter upgrades from a row.
@Suite("Terminal UI: upgrade matrix")
struct TUIMatrixTests {
    static let size = Size(width: 80, height: 24)
    static let manifest = ExampleTests.repository.appendingPathComponent("Examples/notes/manifest.json").path

    func session(from: String? = nil) throws -> Session {
        Session(explorer: try Explorer(app: ExplorerApp(manifestAt: Self.manifest), options: ExplorerOptions(from: try from.map { try Version($0) })))
    }

    func screen(_ session: Session, unicode: Bool = true) -> String {
        Render.screen(session.state, size: Self.size, unicode: unicode).text
    }

    @Test func theMatrixAt80x24() async throws {
        var session = try session()
        await session.press(.matrix, size: Self.size)
        try assertSnapshot(screen(session), named: "matrix-80x24")
    }

    @Test func itReadsInMonochromeWithAGlyphPerCell() async throws {
        var session = try session(from: "0.10")
        session.unicode = false
        await session.press(.matrix, size: Self.size)
        let text = screen(session, unicode: false)
        #expect(text.contains("> 0.10           !   +    *       1    1"))
        #expect(text.contains("* runs  + already applied  - above the app  x runs, failed last time"))
        #expect(text.contains("! out of order: the device is past it, so it never runs"))
    }

    @Test func enterOnARowUpgradesFromThatRelease() async throws {
        var session = try session()
        await session.press(.matrix, size: Self.size)
        guard case .matrix(_, let selection) = session.state.overlay else { Issue.record("no matrix"); return }
        #expect(selection == 0)
        await session.press(.last, size: Self.size)
        await session.handle(.enter, size: Self.size)
        #expect(session.state.overlay == nil)
        #expect(session.explorer.from?.text == "0.10")
        let statuses = session.state.plan?.entries.map(\.status.phrase)
        #expect(statuses == ["skipped: out of order", "applied", "pending", "pending"])
        #expect(screen(session).contains("1 problem (p)"))
    }

    @Test func enterOnTheFreshInstallRowSimulatesOne() async throws {
        var session = try session(from: "0.10")
        await session.press(.matrix, size: Self.size)
        await session.press(.first, size: Self.size)
        await session.handle(.enter, size: Self.size)
        #expect(session.explorer.from == nil && session.explorer.simulatesFreshInstall)
    }

    @Test func aFromThatIsNotAReleaseOpensWithTheNote() throws {
        #expect(try session(from: "0.85").state.message?.text.hasPrefix("0.85 is not a shipped release (0.8, 0.9, 0.10): its history is guessed") == true)
        #expect(try session(from: "0.9").state.message == nil)
    }

    @Test func withoutReleasesOnlyAFreshInstallShowsAndItSaysWhy() async throws {
        var session = Session(explorer: try Explorer(app: DemoApp.make(), options: ExplorerOptions()))
        await session.press(.matrix, size: Self.size)
        guard case .matrix(let matrix, _) = session.state.overlay else { Issue.record("no matrix"); return }
        #expect(matrix.rows.map(\.from) == [nil])
        #expect(screen(session).contains("No shipped release below 1.0: add \"releases\""))
    }

    @Test func escClosesAndAMainKeyActs() async throws {
        var session = try session()
        await session.press(.matrix, size: Self.size)
        await session.handle(.escape, size: Self.size)
        #expect(session.state.overlay == nil)
        await session.press(.matrix, size: Self.size)
        await session.press(.problems, size: Self.size)
        guard case .problems = session.state.overlay else { Issue.record("problems did not open"); return }
    }
}
