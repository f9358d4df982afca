import Foundation
import MigrationTestSupport
import MigrationCore
import Testing
@testable import MigrationExplorer

/// The terminal UI follows its store: another process's change, heard as an event of the loop,
/// is read again through an effect and shown, with what changed on the message line. Scripted
/// events through the real session, no terminal and no waiting.
@Suite("Terminal UI: following the store")
struct TUIFollowStoreTests {
    static let size = Size(width: 80, height: 24)

    /// The app at 1.1 with three migrations, over a JSON file store in `folder` (a fresh install).
    static func app() -> ExplorerApp {
        var registry = MigrationRegistry(appName: "Notes")
        registry.migrate(toVersion: "0.9", title: "Add GUIDs to notes")
        registry.migrate(toVersion: "1.0", title: "Move the attachments")
        registry.migrate(toVersion: "1.1", title: "Index tags")
        return ExplorerApp(registry: registry, appVersion: "1.1")
    }

    static func store(in folder: URL) -> FileMigrationStore { FileMigrationStore(url: folder.appendingPathComponent("state.json")) }

    static func session(in folder: URL) async throws -> Session {
        await Session.opened(explorer: try Explorer(app: app(), options: ExplorerOptions(), realStore: store(in: folder)))
    }

    /// Another process records a device that last ran `version` in the store.
    static func otherProcessSets(_ version: String, in folder: URL) throws {
        var other = try Explorer(app: app(), options: ExplorerOptions(from: try Version(version)), realStore: store(in: folder))
        try other.writeFromToRealStore()
    }

    /// The same, heard by `session` as another process's change.
    static func otherProcessSets(_ version: String, in folder: URL, heardBy session: inout Session) async throws {
        try otherProcessSets(version, in: folder)
        await session.receive(.storeChanged(.changed(writer: nil)), size: size)
    }

    func screen(_ session: Session, size: Size = size) -> String { Render.screen(session.state, size: size, unicode: true).text }

    /// The screen below its first row, which names the store's temporary folder; that row is checked on its own.
    func belowTitle(_ session: Session, size: Size = size) -> String {
        let lines = screen(session, size: size).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first?.contains("REAL STORE: ") == true && lines.first?.contains("state.json") == true, "\(lines.first ?? "")")
        return lines.dropFirst().joined(separator: "\n")
    }

    func statuses(_ session: Session) -> [String] {
        session.state.items.compactMap { if case .migration(let entry) = $0 { entry.status.word } else { nil } }
    }

    @Test func aChangeByAnotherProcessShowsTheNewStateAndSaysWhatChangedKeepingTheSelection() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var session = try await Self.session(in: folder)
        #expect(statuses(session) == ["pending", "pending", "pending"])
        await session.press(.moveDown, size: Self.size)
        await session.press(.moveDown, size: Self.size)
        try Self.otherProcessSets("1.0", in: folder)

        await session.receive(.storeChanged(.changed(writer: "web-1, pid 4121")), size: Self.size)

        #expect(statuses(session) == ["applied", "applied", "pending"])
        #expect(session.state.selection == 2, "the selection moved")
        #expect(session.state.message?.text == "Store changed: 0.9 Add GUIDs to notes applied, 1.0 Move the attachments applied (by web-1, pid 4121)")
        try assertSnapshot(belowTitle(session), named: "follow-store-80x24")
        try assertSnapshot(belowTitle(session, size: Size(width: 60, height: 18)), named: "follow-store-60x18")
    }

    /// A run by another process writes its migrations, then its app version: the second write
    /// moves no status, and the line keeps saying what the first one applied.
    @Test func aLaterChangeThatMovesNoStatusKeepsTheLineThatSaidWhatChanged() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var session = try await Self.session(in: folder)
        try Self.otherProcessSets("1.0", in: folder)
        await session.receive(.storeChanged(.changed(writer: nil)), size: Self.size)
        let said = "Store changed: 0.9 Add GUIDs to notes applied, 1.0 Move the attachments applied"
        #expect(session.state.message?.text == said)

        try Self.store(in: folder).update { $0.lastAppVersion = "1.1" }
        await session.receive(.storeChanged(.changed(writer: nil)), size: Self.size)
        #expect(session.state.plan?.state.lastAppVersion == "1.1", "the store was read again")
        #expect(session.state.message?.text == said)
    }

    /// A run by another process writes each migration on its own: read in two goes, its
    /// changes are said as one line, while that line shows; once another message took its
    /// place, a change is said from the plan then shown.
    @Test func changesReadInSeveralGoesAddToTheLineThatSaysWhatChanged() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var session = try await Self.session(in: folder)
        try await Self.otherProcessSets("0.9", in: folder, heardBy: &session)
        #expect(session.state.message?.text == "Store changed: 0.9 Add GUIDs to notes applied")

        try await Self.otherProcessSets("1.0", in: folder, heardBy: &session)
        #expect(session.state.message?.text == "Store changed: 0.9 Add GUIDs to notes applied, 1.0 Move the attachments applied")

        await session.press(.dryRun, size: Self.size)
        #expect(session.state.message?.text.hasPrefix("Dry run: ") == true, "\(session.state.message?.text ?? "")")
        try await Self.otherProcessSets("1.1", in: folder, heardBy: &session)
        #expect(session.state.message?.text == "Store changed: 1.1 Index tags applied")
    }

    /// A change that moves again what the line said (a reset after a run, a `set` back) is
    /// said on its own: the line never says the opposite of what the rows show.
    @Test func aChangeThatUndoesWhatTheLineSaidIsSaidOnItsOwn() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var session = try await Self.session(in: folder)
        try await Self.otherProcessSets("1.1", in: folder, heardBy: &session)
        #expect(statuses(session) == ["applied", "applied", "applied"])

        try Self.store(in: folder).update { $0 = MigrationRule.reset($0) }
        await session.receive(.storeChanged(.changed(writer: nil)), size: Self.size)
        #expect(statuses(session) == ["pending", "pending", "pending"])
        #expect(session.state.message?.text == "Store changed: 0.9 Add GUIDs to notes pending, 1.0 Move the attachments pending, 1.1 Index tags pending")

        try await Self.otherProcessSets("1.0", in: folder, heardBy: &session)
        #expect(statuses(session) == ["applied", "applied", "pending"])
        #expect(session.state.message?.text == "Store changed: 0.9 Add GUIDs to notes applied, 1.0 Move the attachments applied")

        try await Self.otherProcessSets("0.9", in: folder, heardBy: &session)
        #expect(statuses(session) == ["applied", "pending", "pending"])
        #expect(session.state.message?.text == "Store changed: 1.0 Move the attachments pending")
    }

    @Test func changesDuringAReadAreReadOnceAfterItAndMarkTheDryRunOutOfDate() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var session = try await Self.session(in: folder)
        let dryRun = session.handle(.key(Keymap.binding(for: .dryRun)!.keys[0]), size: Self.size)
        #expect(dryRun == .dryRun)
        let answer = await session.storeWork.perform(.dryRun, on: session.explorer)
        try Self.otherProcessSets("0.9", in: folder)
        for _ in 1...3 {
            #expect(session.handle(.storeChanged(.changed(writer: nil)), size: Self.size) == nil, "read again while the store works")
        }
        let follow = session.handle(.store(answer), size: Self.size)
        #expect(follow == .follow(writer: nil), "a burst is not read once after the answer")
        let followAnswer = await session.storeWork.perform(try #require(follow), on: session.explorer)
        #expect(session.handle(.store(followAnswer), size: Self.size) == nil, "a burst is read more than once")

        #expect(statuses(session) == ["applied", "pending", "pending"])
        #expect(session.state.overlayOutOfDate)
        try assertSnapshot(belowTitle(session), named: "follow-dry-run-out-of-date-80x24")
    }

    @Test func aChangeUnderTheMatrixMarksItOutOfDateWhileItIsBrowsed() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var session = try await Self.session(in: folder)
        await session.press(.matrix, size: Self.size)
        try Self.otherProcessSets("1.0", in: folder)

        await session.receive(.storeChanged(.changed(writer: nil)), size: Self.size)
        await session.handle(.down, size: Self.size)

        guard case .matrix? = session.state.overlay else { Issue.record("the matrix closed"); return }
        #expect(screen(session).contains("Out of date: the store changed; m to redo"), "\(screen(session))")
    }

    @Test func theRunsOwnWritesAreNotAnnouncedAndAChangeDuringItShowsWhenItEnds() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var session = try await Self.session(in: folder)
        let run = session.startRun(size: Self.size)
        #expect(session.handle(.storeChanged(.changed(writer: nil)), size: Self.size) == nil, "the store is read again during the run")
        await run.finish()
        var afterRun: Effect?
        for update in run.takeUpdates() { afterRun = session.handle(.run(update), size: Self.size) ?? afterRun }
        #expect(afterRun == .follow(writer: nil), "the change heard during the run is not read when it ends")
        let ranMessage = session.state.message?.text
        _ = session.handle(.store(await session.storeWork.perform(.follow(writer: nil), on: session.explorer)), size: Self.size)
        #expect(session.state.message?.text == ranMessage, "the run's own writes are announced as a change")
        #expect(statuses(session) == ["applied", "applied", "applied"])

        try Self.store(in: folder).update { $0 = MigrationRule.reset($0) }
        await session.receive(.storeChanged(.changed(writer: nil)), size: Self.size)
        #expect(statuses(session) == ["pending", "pending", "pending"])
        #expect(session.state.message?.text.hasPrefix("Store changed: 0.9 Add GUIDs to notes pending") == true, "\(session.state.message?.text ?? "no message")")
    }

    @Test func aLostConnectionAndItsReturnAreSaid() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var session = try await Self.session(in: folder)
        #expect(session.handle(.storeChanged(.interrupted(reason: "the server closed it\u{1B}[2J")), size: Self.size) == nil)
        #expect(session.state.message?.text == "Not following changes for now: the server closed it�[2J")
        #expect(screen(session).contains("Not following changes for now: the server closed it"))
        #expect(session.handle(.storeChanged(.resumed), size: Self.size) == .follow(writer: nil))
        #expect(session.state.message?.text.hasPrefix("Following the store's changes again") == true)
    }
}
