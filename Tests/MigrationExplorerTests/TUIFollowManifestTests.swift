import Foundation
import MigrationTestSupport
import MigrationCore
import Testing
@testable import MigrationExplorer

/// The terminal UI follows its manifest: each save, read as the loop's subscription reads it,
/// shows the new registry and says what changed; an invalid save keeps the last good plan,
/// marked out of date with the problem; a run never starts on a manifest saved since the plan
/// shown. Scripted events through the real session, no terminal and no waiting.
@Suite("Terminal UI: following the manifest")
struct TUIFollowManifestTests {
    static let size = Size(width: 80, height: 24)

    static let twoMigrations = #"""
        { "app": "Ledger", "appVersion": "1.1", "migrations": [
          { "version": "0.9", "title": "Add GUIDs" },
          { "version": "1.0", "title": "Split tags" } ] }
        """#
    static let threeMigrations = #"""
        { "app": "Ledger", "appVersion": "1.1", "migrations": [
          { "version": "0.9", "title": "Add GUIDs" },
          { "version": "1.0", "title": "Split tags" },
          { "version": "1.1", "title": "Seed lists" } ] }
        """#

    /// A session on the manifest in `folder`, a sandbox at 0.8 upgrading to 1.0 (the "to" chosen
    /// is not the manifest's).
    static func session(in folder: URL) async throws -> (Session, FollowedManifest, URL) {
        let url = folder.appendingPathComponent("manifest.json")
        try url.write(twoMigrations)
        let explorer = try Explorer(app: try ExplorerApp(manifestAt: url.path), options: ExplorerOptions(from: try Version("0.8"), to: try Version("1.0")))
        let manifest = FollowedManifest(path: url.path, shown: explorer.app.registry)
        return (await Session.opened(explorer: explorer, manifest: manifest), manifest, url)
    }

    /// Saves `text` as an editor does: a temporary file renamed over the manifest.
    static func save(_ text: String, renamingOver url: URL) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".manifest.json.swp")
        try temporary.write(text)
        guard rename(temporary.path, url.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    func screen(_ session: Session, size: Size = size) -> String { Render.screen(session.state, size: size, unicode: true).text }

    func titles(_ session: Session) -> [String] { session.state.items.compactMap { $0.migration?.title } }

    @Test func aSaveShowsTheNewRegistrySaysWhatChangedAndKeepsTheUpgrade() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var (session, manifest, url) = try await Self.session(in: folder)
        try Self.save(Self.threeMigrations, renamingOver: url)

        let outcome = try #require(manifest.changedSinceShown())
        await session.receive(.manifest(outcome), size: Self.size)

        #expect(titles(session) == ["Add GUIDs", "Split tags", "Seed lists"])
        #expect(session.explorer.app.registry.migrations.count == 3)
        #expect(session.state.message?.text == "Manifest: 1.1 Seed lists added")
        #expect(session.explorer.from?.text == "0.8" && session.state.target.version.text == "1.0", "the from/to explored changed")
        #expect(manifest.changedSinceShown() == nil, "one save is read twice")
        try assertSnapshot(screen(session), named: "follow-manifest-80x24")
    }

    /// A save of the same length, changed past its first bytes (a title's one letter), is a
    /// change: the follower compares every byte, not a length and a prefix.
    @Test func aSaveOfTheSameLengthIsAChange() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var (session, manifest, url) = try await Self.session(in: folder)
        let edited = Self.twoMigrations.replacingOccurrences(of: "Split tags", with: "Split tabs")
        #expect(edited.utf8.count == Self.twoMigrations.utf8.count)
        try Self.save(edited, renamingOver: url)

        let outcome = try #require(manifest.changedSinceShown(), "the save was not seen")
        await session.receive(.manifest(outcome), size: Self.size)
        #expect(titles(session) == ["Add GUIDs", "Split tabs"])
    }

    @Test func anInvalidSaveKeepsTheLastGoodPlanMarkedOutOfDateUntilASaveFixesIt() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var (session, manifest, url) = try await Self.session(in: folder)
        try url.write("{ \"app\": \"Ledger\",\n  \"appVersion\": 1.1 ,, }")

        await session.receive(.manifest(try #require(manifest.changedSinceShown())), size: Self.size)

        #expect(titles(session) == ["Add GUIDs", "Split tags"], "the last good plan went")
        let problem = try #require(session.state.manifestProblem)
        #expect(problem.contains("line 2"), "\(problem)")
        #expect(screen(session).contains("out of date: manifest.json"))
        try assertSnapshot(screen(session), named: "follow-manifest-invalid-80x24")
        try assertSnapshot(screen(session, size: Size(width: 60, height: 18)), named: "follow-manifest-invalid-60x18")
        await session.press(.runPending, size: Self.size)
        #expect(session.state.message?.text.hasPrefix("No run: the manifest changed since the plan shown") == true)

        try Self.save(Self.threeMigrations, renamingOver: url)
        await session.receive(.manifest(try #require(manifest.changedSinceShown())), size: Self.size)
        #expect(session.state.manifestProblem == nil)
        #expect(!screen(session).contains("out of date"))
        #expect(titles(session) == ["Add GUIDs", "Split tags", "Seed lists"])
    }

    @Test func aRunAskedForOnAManifestSavedSinceThePlanShownReplansInstead() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var (session, _, url) = try await Self.session(in: folder)
        let before = try session.explorer.store.load()
        try Self.save(Self.threeMigrations, renamingOver: url)

        await session.press(.runPending, size: Self.size)

        #expect(try session.explorer.store.load() == before, "the run started")
        #expect(session.state.lastReport == nil)
        #expect(titles(session) == ["Add GUIDs", "Split tags", "Seed lists"])
        #expect(session.state.message?.text == "Not run: the manifest changed since the plan shown; here is its new plan, r runs it")
        await session.press(.runPending, size: Self.size)
        #expect(session.state.lastReport != nil, "the run on the new plan does not start")
    }
}
