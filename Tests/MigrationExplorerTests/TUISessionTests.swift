import Foundation
import MigrationCore
import Testing
@testable import MigrationExplorer

/// The update loop and rendering, without a terminal: keys by action name in, state and
/// screens out.
@Suite("Terminal UI session")
struct TUISessionTests {
    static let size = Size(width: 80, height: 24)
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tui-tests-\(UUID().uuidString)")
    }

    func session(failing: String? = nil, options: ExplorerOptions = ExplorerOptions()) throws -> Session {
        let app = DemoApp.make(dataFolder: folder, failing: try failing.map { try Version($0) })
        return Session(explorer: try Explorer(app: app, options: options))
    }

    func screen(_ session: Session, size: Size = size, unicode: Bool = true) -> String {
        Render.screen(session.state, size: size, unicode: unicode).text
    }

    func statuses(_ session: Session) -> [String: String] {
        Dictionary(session.state.items.compactMap { item -> (String, String)? in
            guard case .migration(let entry) = item else { return nil }
            return (entry.migration.declared, entry.status.phrase)
        }, uniquingKeysWith: { first, _ in first })
    }

    @Test func opensOnTheDemoAsADeviceAt0_8UpgradingTo1_0() throws {
        let session = try session()
        #expect(statuses(session)["0.9"] == "pending")
        #expect(statuses(session)["1.0"] == "pending")
        #expect(statuses(session)["1.1"] == "skipped: above app version")
        #expect(statuses(session)["0.8"] == "applied")
        #expect(screen(session).contains("Notes 0.8 → 1.0 (build 90 → 100)"))
        guard case .migration(let selected) = session.state.selectedItem else { Issue.record("no selection"); return }
        #expect(selected.migration.declared == "0.9")
    }

    @Test func mainScreenAt80x24() throws {
        try assertSnapshot(screen(try session()), named: "main-80x24")
    }

    @Test func mainScreenAt80x24InASCII() throws {
        try assertSnapshot(screen(try session(), unicode: false), named: "main-80x24-ascii")
    }

    @Test func wideScreenPutsDetailsBesideTheTable() throws {
        try assertSnapshot(screen(try session(), size: Size(width: 130, height: 30)), named: "main-130x30")
    }

    @Test func tinyTerminalSaysItIsTooSmall() throws {
        try assertSnapshot(screen(try session(), size: Size(width: 40, height: 10)), named: "tiny-40x10")
    }

    @Test func helpOverlayListsEveryKey() throws {
        var session = try session()
        session.press(.help, size: Self.size)
        let text = screen(session)
        try assertSnapshot(text, named: "help-80x24")
        session.handle(.escape, size: Self.size)
        #expect(session.state.overlay == nil)
    }

    @Test func dryRunShowsTheOrderedListAndChangesNothing() throws {
        var session = try session()
        let before = try session.explorer.store.load()
        session.press(.dryRun, size: Self.size)
        try assertSnapshot(screen(session), named: "dry-run-80x24")
        #expect(try session.explorer.store.load() == before)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("notes.json").path))
    }

    @Test func runRunsThePendingMigrationsForRealOnTheSandbox() throws {
        var session = try session()
        session.press(.runPending, size: Self.size)
        #expect(statuses(session)["0.9"] == "applied")
        #expect(statuses(session)["1.1"] == "skipped: above app version")
        #expect(session.state.message?.text.hasPrefix("Ran 7 steps") == true)
        let notes = try String(contentsOf: folder.appendingPathComponent("notes.json"), encoding: .utf8)
        #expect(notes.contains("\"id\""))
        #expect(notes.contains("\"text\"") && !notes.contains("\"body\""), "0.8 is applied on this device: its notes have text")
        #expect(notes.contains("2021-02-03"))
        session.handle(.escape, size: Self.size)
        #expect(screen(session).contains("Last run: ✓ succeeded"))
    }

    @Test func aReportScrollsNoFurtherThanItsLastLine() throws {
        var session = try session()
        let small = Size(width: 60, height: 14)
        session.handle(.character("r"), size: small)
        for _ in 0..<50 { session.handle(.down, size: small) }
        let bottom = session.state.overlayOffset
        #expect(bottom > 0)
        session.handle(.up, size: small)
        #expect(session.state.overlayOffset == bottom - 1)
    }

    @Test func aFailureShowsItsErrorAndLeavesTheMigrationPending() throws {
        var session = try session(failing: "0.10")
        session.press(.runPending, size: Self.size)
        #expect(statuses(session)["0.9"] == "applied")
        #expect(statuses(session)["0.10"] == "failed")
        #expect(statuses(session)["1.0"] == "pending")
        #expect(session.state.message?.role == .failed)
        #expect(screen(session).contains("the demo was started"))
        session.handle(.escape, size: Self.size)
        session.press(.moveDown, size: Self.size)
        #expect(screen(session).contains("Error: Normalise dates to ISO 8601 failed"))
    }

    @Test func resetAsksFirstAndNoIsTheDefault() throws {
        var session = try session()
        session.press(.runPending, size: Self.size)
        session.handle(.escape, size: Self.size)
        session.press(.reset, size: Self.size)
        #expect(screen(session).contains("Are you sure?"))
        session.handle(.enter, size: Self.size)
        #expect(statuses(session)["0.9"] == "applied")
        session.press(.reset, size: Self.size)
        session.handle(.character("y"), size: Self.size)
        #expect(statuses(session)["0.9"] == "pending")
        #expect(session.state.message?.text == "Reset: the sandbox is back to a device at 0.8 (build 90)")
    }

    @Test func runningAgainstARealStoreAsksFirst() throws {
        let store = folder.appendingPathComponent("state.json").path
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var session = try session(options: ExplorerOptions(storePath: store))
        #expect(screen(session).contains("REAL STORE"))
        session.press(.runPending, size: Self.size)
        #expect(screen(session).contains("against the real store"))
        session.handle(.character("n"), size: Self.size)
        #expect(!FileManager.default.fileExists(atPath: store))
        session.press(.runPending, size: Self.size)
        session.handle(.character("y"), size: Self.size)
        #expect(FileManager.default.fileExists(atPath: store))
    }

    @Test func changingFromAndToReplans() throws {
        var session = try session()
        session.press(.setFrom, size: Self.size)
        session.handle(.control("u"), size: Self.size)
        session.type("0.9", size: Self.size)
        #expect(statuses(session)["0.9"] == "applied")
        session.press(.setTo, size: Self.size)
        session.handle(.control("u"), size: Self.size)
        session.type("1.1", size: Self.size)
        #expect(statuses(session)["1.1"] == "pending")
        #expect(screen(session).contains("Notes 0.9 → 1.1"))
    }

    @Test("a bad version in a prompt is refused with the reason", arguments: ["1.0-beta", "v2", "1..2"])
    func badVersionIsRefused(input: String) throws {
        var session = try session()
        session.press(.setTo, size: Self.size)
        session.handle(.control("u"), size: Self.size)
        session.type(input, size: Self.size)
        #expect(session.state.prompt?.error?.contains("is not a version") == true)
        #expect(screen(session).contains("is not a version"))
        session.handle(.escape, size: Self.size)
        #expect(session.state.prompt == nil)
        #expect(session.explorer.target.version.text == "1.0")
    }

    @Test func anEmptyFromIsAFreshInstall() throws {
        var session = try session()
        session.press(.setFrom, size: Self.size)
        session.handle(.control("u"), size: Self.size)
        session.handle(.enter, size: Self.size)
        #expect(statuses(session)["0.5"] == "pending")
    }

    @Test func whatsNewWalksThroughThePagesOfThisUpgrade() throws {
        var session = try session()
        session.press(.whatsNew, size: Self.size)
        #expect(screen(session).contains("What's New in Notes 1.0 · 1 of 3"))
        #expect(screen(session).contains("Your notes now sync across all your devices."))
        session.handle(.enter, size: Self.size)
        #expect(screen(session).contains("2 of 3"))
        session.handle(.left, size: Self.size)
        #expect(screen(session).contains("1 of 3"))
        for _ in 0..<3 { session.handle(.enter, size: Self.size) }
        #expect(session.state.overlay == nil)
    }

    @Test func filterByTextOrStatusAndEscClears() throws {
        var session = try session()
        session.press(.filter, size: Self.size)
        session.type("skipped", size: Self.size)
        #expect(session.state.items.count == 2)
        #expect(screen(session).contains("filter: skipped (2 shown; Esc clears)"))
        session.handle(.escape, size: Self.size)
        #expect(session.state.items.count == 12)
        session.press(.filter, size: Self.size)
        session.type("nothing like this", size: Self.size, enter: false)
        #expect(screen(session).contains("Nothing matches"))
    }

    @Test func movementKeepsTheSelectionInViewAndInRange() throws {
        var session = try session()
        let small = Size(width: 60, height: 14)
        session.press(.last, size: small)
        #expect(session.state.selection == session.state.items.count - 1)
        #expect(screen(session, size: small).contains("12 of 12"))
        session.press(.first, size: small)
        #expect(session.state.selection == 0)
        session.press(.moveUp, size: small)
        #expect(session.state.selection == 0)
        session.press(.pageDown, size: small)
        #expect(session.state.selection > 0)
        #expect(session.state.tableTop <= session.state.selection)
    }

    @Test func quitKeysAndEscClosingAnOverlayFirst() throws {
        var session = try session()
        session.press(.help, size: Self.size)
        session.handle(.escape, size: Self.size)
        #expect(!session.state.wantsQuit)
        session.handle(.control("c"), size: Self.size)
        #expect(session.state.wantsQuit)
    }

    @Test func theReadmeKeyTableComesFromTheKeymap() throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        #expect(try String(contentsOf: readme, encoding: .utf8).contains(Keymap.markdownTable))
    }
}

@Suite("Screen")
struct ScreenTests {
    @Test func wideCharactersTakeTwoCellsAndKeepColumnsAligned() {
        var screen = Screen(size: Size(width: 12, height: 2))
        screen.write("日本語ab", row: 0, column: 0)
        screen.write("|", row: 0, column: 8)
        #expect(screen.text.split(separator: "\n")[0] == "日本語ab|   ")
        screen.write("日本語のメモ", row: 1, column: 0, width: 7)
        #expect(screen.text.split(separator: "\n")[1] == "日本語…     ")
    }

    @Test func aWideCharacterThatDoesNotFitIsLeftOut() {
        var screen = Screen(size: Size(width: 3, height: 1))
        screen.write("a日本", row: 0, column: 0, ellipsis: "")
        #expect(screen.text == "a日")
        #expect(screen.cell(row: 0, column: 2).isWideTail)
    }

    @Test func wrapMeasuresCells() {
        #expect(wrap("日本語 のメモ です", width: 6) == ["日本語", "のメモ", "です"])
    }
}
