import Foundation
import MigrationCore
import Testing
@testable import MigrationExplorer

/// A migration whose earlier attempts were interrupted: its row says held back (without a run
/// number) after three at the app's build, and its details list every attempt with its date
/// and build, and what to do.
@Suite("Terminal UI: interrupted attempts")
struct TUIInterruptedTests {
    /// A manifest at 1.0 (build 120) and a store where 0.9 was interrupted `count` times at build 120.
    static func explorer(interrupted count: Int, in folder: URL) throws -> Explorer {
        let manifest = folder.appendingPathComponent("m.json")
        try manifest.write("""
            { "appVersion": "1.0", "appBuild": "120", "migrations": [
              { "version": "0.9", "title": "Import the archive", "run": "true" },
              { "version": "1.0", "title": "After it", "run": "true" } ] }
            """)
        let store = folder.appendingPathComponent("s.json")
        let start = Date(timeIntervalSince1970: 1_795_856_776)   // 2026-11-28 09:06:16 UTC
        try FileMigrationStore(url: store).saveAttempts((0..<count).map { index in
            MigrationAttempt(track: .version, identifier: "0.9", title: "Import the archive", appVersion: "1.0", appBuild: "120",
                             date: start + Double(index) * 90)
        })
        return try Explorer(app: ExplorerApp(manifestAt: manifest.path), options: ExplorerOptions(store: .jsonFile(store.path)))
    }

    @Test(arguments: [Size(width: 80, height: 24), Size(width: 60, height: 18)])
    func threeInterruptionsShowTheRowHeldBackAndTheDetailsListEachAttempt(size: Size) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = await Session.opened(explorer: try Self.explorer(interrupted: 3, in: folder))
        let screen = Render.screen(session.state, size: size, unicode: true).text
        let row = try #require(screen.split(separator: "\n").first { $0.contains("Import the archive") })
        #expect(row.contains("● held back"), "\(screen)")
        #expect(!row.contains(" 1 "), "a held-back migration has no run number: \(row)")
        #expect(screen.contains("pending: held back, 3 interruptions at build 120"), "\(screen)")
        #expect(screen.contains("run --retry-interrupted"), "\(screen)")
        // The attempts below it, where the pane has room (a small one scrolls to them).
        if size.height >= 24 { #expect(screen.contains("2026-11-28 09:06:16 UTC, build 120"), "\(screen)") }
    }

    @Test func fewerInterruptionsLeaveItPendingAndListThemAsItsHistory() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = await Session.opened(explorer: try Self.explorer(interrupted: 2, in: folder))
        let screen = Render.screen(session.state, size: Size(width: 80, height: 24), unicode: true).text
        let row = try #require(screen.split(separator: "\n").first { $0.contains("Import the archive") })
        #expect(row.contains("● pending"), "\(screen)")
        #expect(screen.contains("Interrupted 2 times (the process died inside it):"), "\(screen)")
        #expect(screen.contains("2026-11-28 09:07:46 UTC, build 120"), "\(screen)")
    }
}
