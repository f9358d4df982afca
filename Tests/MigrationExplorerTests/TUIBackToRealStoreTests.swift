import Foundation
import MigrationCore
import Testing
@testable import MigrationExplorer

/// `b` after `f` or Enter on a matrix row: the explorer plays the real store as it records
/// again, without writing anything to it.
@Suite("Terminal UI: back to the real store")
struct TUIBackToRealStoreTests {
    static let size = Size(width: 80, height: 24)
    let folder: URL
    /// A preferences plist of a device already at 1.0 (build 95).
    let plist: URL

    init() throws {
        folder = try makeTemporaryFolder()
        plist = folder.appendingPathComponent("state.plist")
        try PropertyListMigrationStore(url: plist).save(MigrationState(
            lastMigratedVersion: "1.0", lastMigratedBuild: "95", lastAppVersion: "1.0", lastAppBuild: "95"))
    }

    func session(from: String? = nil) async throws -> Session {
        await Session.opened(explorer: try Explorer(app: ExplorerApp(manifestAt: TUIMatrixTests.manifest),
                                       options: ExplorerOptions(from: try from.map { try Version($0) }, store: .defaultsPlist(plist.path))))
    }

    func rows(_ session: Session) -> [String] {
        Render.screen(session.state, size: Self.size, unicode: true).text.components(separatedBy: "\n")
    }

    enum Detour: String, CaseIterable { case fromPrompt, matrixRow, launchedWithFrom }

    @Test("b brings back the real store's own state after a simulated device", arguments: Detour.allCases)
    func backBringsTheRealStoreBack(detour: Detour) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let recorded = try Data(contentsOf: plist)
        let real = try await session().state.plan?.entries.map(\.status)
        var session = try await session(from: detour == .launchedWithFrom ? "0.9" : nil)
        switch detour {
        case .fromPrompt:
            #expect(rows(session).last?.contains("b back") == false, "nothing to go back to yet: \(rows(session).last ?? "")")
            await session.press(.setFrom, size: Self.size)
            await session.handle(.control("u"), size: Self.size)
            await session.type("0.9 (90)", size: Self.size)
        case .matrixRow:
            await session.press(.matrix, size: Self.size)
            await session.press(.first, size: Self.size)
            await session.handle(.down, size: Self.size)
            await session.handle(.enter, size: Self.size)
        case .launchedWithFrom:
            break
        }
        #expect(session.explorer.isSandbox)
        #expect(rows(session)[0].contains("store: sandbox over"), "\(rows(session)[0])")
        #expect(rows(session).last?.contains("b back") == true, "the footer offers the way back: \(rows(session).last ?? "")")

        await session.press(.backToRealStore, size: Self.size)
        #expect(!session.explorer.isSandbox)
        #expect(session.explorer.from == nil && session.explorer.fromBuild == nil && !session.explorer.simulatesFreshInstall)
        #expect(session.state.plan?.entries.map(\.status) == real)
        #expect(rows(session)[0].contains("REAL STORE: "), "\(rows(session)[0])")
        #expect(rows(session)[0].contains("Notes 1.0 → 1.0 (build 95 → 120)"), "\(rows(session)[0])")
        #expect(session.state.message?.text == "Back to the real store \(plist.path), as it records: a device at 1.0 (build 95)")
        #expect(rows(session).last?.contains("b back") == false, "\(rows(session).last ?? "")")
        #expect(try Data(contentsOf: plist) == recorded, "going back writes nothing")
    }

    @Test func onTheRealStoreAlreadyBSaysSo() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var session = try await session()
        await session.press(.backToRealStore, size: Self.size)
        #expect(session.state.message?.text == "Already playing the real store \(plist.path) as it records")
        #expect(!session.explorer.isSandbox)
    }

    @Test func withoutARealStoreBSaysThereIsNone() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var session = await Session.opened(explorer: try Explorer(app: DemoApp.make(dataFolder: folder), options: ExplorerOptions()))
        await session.press(.backToRealStore, size: Self.size)
        #expect(session.state.message?.text.hasPrefix("No real store to go back to: open one with --store") == true,
                "\(session.state.message?.text ?? "no message")")
        #expect(session.explorer.isSandbox && session.explorer.from?.text == "0.8")
    }
}
