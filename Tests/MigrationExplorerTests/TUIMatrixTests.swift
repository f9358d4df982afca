import Foundation
import MigrationCore
import Testing
@testable import MigrationExplorer

/// `m`: every upgrade path of the notes example as a grid; Enter upgrades from a row.
@Suite("Terminal UI: upgrade matrix")
struct TUIMatrixTests {
    static let size = Size(width: 80, height: 24)
    static let manifest = ExampleTests.repository.appendingPathComponent("Examples/notes/manifest.json").path

    func session(from: String? = nil) async throws -> Session {
        await Session.opened(explorer: try Explorer(app: ExplorerApp(manifestAt: Self.manifest), options: ExplorerOptions(from: try from.map { try Version($0) })))
    }

    func screen(_ session: Session, unicode: Bool = true) -> String {
        Render.screen(session.state, size: Self.size, unicode: unicode).text
    }

    @Test func theMatrixAt80x24() async throws {
        var session = try await session()
        await session.press(.matrix, size: Self.size)
        try assertSnapshot(screen(session), named: "matrix-80x24")
    }

    @Test func itReadsInMonochromeWithAGlyphPerCell() async throws {
        var session = try await session(from: "0.10")
        session.unicode = false
        await session.press(.matrix, size: Self.size)
        let text = screen(session, unicode: false)
        #expect(text.contains("> 0.10              1    1  !   +    *"))
        #expect(text.contains("* runs  + already applied  - above the app  x runs, failed last time"))
        #expect(text.contains("! out of order: the device is past it, so it never runs"))
    }

    @Test func enterOnARowUpgradesFromThatRelease() async throws {
        var session = try await session()
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
        var session = try await session(from: "0.10")
        await session.press(.matrix, size: Self.size)
        await session.press(.first, size: Self.size)
        await session.handle(.enter, size: Self.size)
        #expect(session.explorer.from == nil && session.explorer.simulatesFreshInstall)
    }

    @Test func aFromThatIsNotAReleaseOpensWithTheNote() async throws {
        #expect(try await session(from: "0.85").state.message?.text.hasPrefix("0.85 is not a shipped release (0.8, 0.9, 0.10): its history is guessed") == true)
        #expect(try await session(from: "0.9").state.message == nil)
    }

    @Test func withoutReleasesOnlyAFreshInstallShowsAndItSaysWhy() async throws {
        var registry = MigrationRegistry(appName: "Notes")
        registry.migrate(toVersion: "0.9", title: "Add GUIDs to notes")
        var session = await Session.opened(explorer: try Explorer(app: ExplorerApp(registry: registry, appVersion: "1.0"), options: ExplorerOptions()))
        await session.press(.matrix, size: Self.size)
        guard case .matrix(let matrix, _) = session.state.overlay else { Issue.record("no matrix"); return }
        #expect(matrix.rows.map(\.from) == [nil])
        #expect(screen(session).contains("No shipped release below 1.0: add \"releases\""))
    }

    // MARK: The demo's releases

    func demo() async throws -> Session {
        await Session.opened(explorer: try Explorer(app: DemoApp.make(), options: ExplorerOptions()))
    }

    @Test func theDemoShipsReleasesSoItsMatrixShowsEveryPath() async throws {
        var session = try await demo()
        await session.press(.matrix, size: Self.size)
        guard case .matrix(let matrix, let selection) = session.state.overlay else { Issue.record("no matrix"); return }
        #expect(matrix.rows.map { $0.from?.text ?? "fresh install" } == ["fresh install", "0.5", "0.8", "0.9", "0.10"])
        #expect(matrix.rows[selection].from?.text == "0.8", "it opens on the device the demo plays")
        // 0.7 shipped in 1.0: a device already past it never runs it.
        #expect(matrix.rows.map { $0.outOfOrder.map(\.declared) } == [[], [], ["0.7"], ["0.7"], ["0.7"]])
        // What's New differs by path.
        #expect(matrix.rows.map(\.plan.whatsNew.count) == [3, 3, 3, 2, 1])
        let text = screen(session)
        #expect(!text.contains("No shipped release"), "\(text)")
        try assertSnapshot(text, named: "demo-matrix-80x24")
    }

    @Test func theDemosDefaultDeviceIsAShippedReleaseWithItsBuild() async throws {
        let session = try await demo()
        #expect(session.explorer.historyNote == nil, "its history is replayed, not guessed")
        let statuses = Dictionary(session.state.plan?.entries.map { ($0.migration.declared, $0.status) } ?? [], uniquingKeysWith: { first, _ in first })
        #expect(statuses["0.7"] == .skipped(.outOfOrder))
        #expect(statuses["0.9"] == .pending)
    }

    @Test func enterOnADemoRowPlaysTheReleaseWithTheBuildItShipped() async throws {
        var session = try await demo()
        await session.press(.matrix, size: Self.size)
        await session.handle(.down, size: Self.size)
        await session.handle(.enter, size: Self.size)
        #expect(session.explorer.from?.text == "0.9" && session.explorer.fromBuild?.text == "95")
        #expect(screen(session).contains("Notes 0.9 → 1.0 (build 95 → 100)"), "\(screen(session))")
        let message = try #require(session.state.message?.text)
        #expect(message == "Simulating a device at 0.9 (build 95)", "\(message)")
        let statuses = Dictionary(session.state.plan?.entries.map { ($0.migration.declared, $0.status) } ?? [], uniquingKeysWith: { first, _ in first })
        #expect(statuses["95"] == .applied && statuses["100"] == .pending)
    }

    @Test func escClosesAndAMainKeyActs() async throws {
        var session = try await session()
        await session.press(.matrix, size: Self.size)
        await session.handle(.escape, size: Self.size)
        #expect(session.state.overlay == nil)
        await session.press(.matrix, size: Self.size)
        await session.press(.problems, size: Self.size)
        guard case .problems = session.state.overlay else { Issue.record("problems did not open"); return }
    }
}
