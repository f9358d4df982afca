import Foundation
import MigrationCore
import Testing
@testable import MigrationExplorer

/// The explorer over a real store: the matrix, Enter on a row and `s` give one answer per
/// "from"; the header keeps the words saying whether runs are real; the footer keeps help and
/// quit; the message names the build the sandbox records.
@Suite("Terminal UI: answers over a real store")
struct TUIRealStoreAnswersTests {
    static let size = Size(width: 80, height: 24)
    let folder: URL
    /// A preferences plist deep in a long folder, of a device already at 1.0 (build 95).
    let plist: URL

    init() throws {
        folder = try makeTemporaryFolder()
        let deep = folder.appendingPathComponent("a-rather-long-folder-name/and-another-one/w")
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        plist = deep.appendingPathComponent("fr.plist")
        try PropertyListMigrationStore(url: plist).save(MigrationState(
            lastMigratedVersion: "1.0", lastMigratedBuild: "95", lastAppVersion: "1.0", lastAppBuild: "95"))
    }

    func session(from: String? = nil) async throws -> Session {
        await Session.opened(explorer: try Explorer(app: ExplorerApp(manifestAt: TUIMatrixTests.manifest),
                                       options: ExplorerOptions(from: try from.map { try Version($0) }, store: .defaultsPlist(plist.path))))
    }

    func header(_ session: Session, width: Int) -> String {
        String(Render.screen(session.state, size: Size(width: width, height: 24), unicode: true).text.split(separator: "\n")[0])
    }

    @Test func enterOnAMatrixRowAndSAgreeWithTheMatrix() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var session = try await session()
        await session.press(.matrix, size: Self.size)
        guard case .matrix(let matrix, _) = session.state.overlay else { Issue.record("no matrix"); return }
        let row = try #require(matrix.rows.firstIndex { $0.from?.text == "0.9" })
        await session.press(.first, size: Self.size)
        for _ in 0..<row { await session.handle(.down, size: Self.size) }
        await session.handle(.enter, size: Self.size)
        #expect(session.explorer.from?.text == "0.9" && session.explorer.isSandbox)
        let expected = matrix.rows[row].plan.entries.map(\.status)
        #expect(session.state.plan?.entries.map(\.status) == expected)
        #expect(session.state.plan?.pending.map(\.migration.declared).prefix(3) == ["0.9", "0.10", "1.0"])

        await session.press(.writeFrom, size: Self.size)
        await session.handle(.character("y"), size: Self.size)
        #expect(!session.explorer.isSandbox)
        let recorded = try PropertyListMigrationStore(url: plist).load()
        #expect(recorded.lastMigratedVersion == nil && recorded.lastAppVersion == "0.9")
        #expect(session.state.plan?.entries.map(\.status) == expected)
    }

    /// A matrix row is a device that last ran the release, with no build recorded: Enter on it
    /// plays that device, not one that keeps the build the real store records.
    @Test func enterOnAMatrixRowPlaysTheRowsBuildNotTheStores() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try PropertyListMigrationStore(url: plist).save(MigrationState(
            lastMigratedVersion: "1.0", lastMigratedBuild: "119", lastAppVersion: "1.0", lastAppBuild: "119"))
        var session = try await session()
        await session.press(.matrix, size: Self.size)
        guard case .matrix(let matrix, _) = session.state.overlay else { Issue.record("no matrix"); return }
        let row = try #require(matrix.rows.firstIndex { $0.from?.text == "0.9" })
        for _ in 0..<row { await session.handle(.down, size: Self.size) }
        await session.handle(.enter, size: Self.size)
        #expect(session.explorer.from?.text == "0.9" && session.explorer.fromBuild == nil)
        #expect(session.state.plan?.entries.map(\.status) == matrix.rows[row].plan.entries.map(\.status))
        #expect(session.state.plan?.pending.map(\.migration.declared).contains("118") == true, "build 118 runs on the row's device")
        #expect(try PropertyListMigrationStore(url: plist).load().lastMigratedBuild == "119", "the real store is not touched")
    }

    @Test func aFromWithoutABuildNamesTheBuildTheStoreRecords() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var session = try await session()
        await session.press(.setFrom, size: Self.size)
        await session.handle(.control("u"), size: Self.size)
        await session.type("0.9", size: Self.size)
        #expect(header(session, width: 100).contains("(build 95 → 120)"))
        let message = try #require(session.state.message?.text)
        #expect(message.hasPrefix("Simulating a device at 0.9 (build 95)"), "\(message)")
        #expect(!message.contains("no build recorded"))
    }

    @Test("the header cuts the path, never the words", arguments: [80, 60])
    func headerKeepsTheWords(width: Int) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var session = try await session(from: "0.9")
        #expect(header(session, width: width).contains("sandbox over …"), "\(header(session, width: width))")
        #expect(header(session, width: width).hasSuffix("fr.plist "), "\(header(session, width: width))")
        await session.press(.setFrom, size: Self.size)
        await session.handle(.control("u"), size: Self.size)
        await session.type("", size: Self.size)
        #expect(session.explorer.simulatesFreshInstall)
        let fresh = header(session, width: width)
        #expect(fresh.contains("sandbox (fresh install; …"), "\(fresh)")
        #expect(fresh.hasSuffix("fr.plist untouched) "), "\(fresh)")
        await session.press(.writeFrom, size: Self.size)
        let real = try await self.session()
        #expect(header(real, width: width).contains("REAL STORE: …"), "\(header(real, width: width))")
        #expect(header(real, width: width).hasSuffix("fr.plist "))
    }

    @Test func theMatrixFooterKeepsHelpAndQuitAt60x16() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        // From 0.10 there is a problem (0.9 is out of order): its key is essential too.
        var session = try await session(from: "0.10")
        #expect(!session.state.problems.isEmpty)
        await session.press(.matrix, size: Self.size)
        let size = Size(width: 60, height: 16)
        let footer = try #require(Render.screen(session.state, size: size, unicode: true).text.split(separator: "\n").last)
        // Help says it lists the keys once essential ones gave way.
        #expect((footer.contains("? help") || footer.contains("? keys")) && footer.contains("q quit"), "\(footer)")
        #expect(footer.contains("Enter upgrade from it"), "\(footer)")
    }
}
