import Foundation
import MigrationCore
#if SQLite
import MigrationSQLite
#endif
import Testing
@testable import MigrationExplorer

/// The update loop and rendering, without a terminal: keys by action name in, state and
/// screens out.
@Suite("Terminal UI session")
final class TUISessionTests {
    static let size = Size(width: 80, height: 24)
    /// Where each test's demo keeps its data; removed after the test.
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tui-tests-\(UUID().uuidString)")
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func session(failing: String? = nil, options: ExplorerOptions = ExplorerOptions()) async throws -> Session {
        let app = DemoApp.make(dataFolder: folder, failing: try failing.map { try Version($0) })
        return await Session.opened(explorer: try Explorer(app: app, options: options))
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

    @Test func opensOnTheDemoAsADeviceAt0_8UpgradingTo1_0() async throws {
        let session = try await session()
        #expect(statuses(session)["0.9"] == "pending")
        #expect(statuses(session)["1.0"] == "pending")
        #expect(statuses(session)["1.1"] == "skipped: above app version")
        #expect(statuses(session)["0.8"] == "applied")
        #expect(screen(session).contains("Notes 0.8 → 1.0 (build 90 → 100)"))
        guard case .migration(let selected) = session.state.selectedItem else { Issue.record("no selection"); return }
        #expect(selected.migration.declared == "0.9")
    }

    @Test func mainScreenAt80x24() async throws {
        try assertSnapshot(screen(try await session()), named: "main-80x24")
    }

    @Test func mainScreenAt80x24InASCII() async throws {
        try assertSnapshot(screen(try await session(), unicode: false), named: "main-80x24-ascii")
    }

    @Test func wideScreenPutsDetailsBesideTheTable() async throws {
        try assertSnapshot(screen(try await session(), size: Size(width: 130, height: 30)), named: "main-130x30")
    }

    @Test func tinyTerminalSaysItIsTooSmall() async throws {
        try assertSnapshot(screen(try await session(), size: Size(width: 40, height: 10)), named: "tiny-40x10")
    }

    @Test func helpOverlayListsEveryKey() async throws {
        var session = try await session()
        await session.press(.help, size: Self.size)
        let text = screen(session)
        try assertSnapshot(text, named: "help-80x24")
        await session.handle(.escape, size: Self.size)
        #expect(session.state.overlay == nil)
    }

    @Test func dryRunShowsTheOrderedListAndChangesNothing() async throws {
        var session = try await session()
        let before = try session.explorer.store.load()
        await session.press(.dryRun, size: Self.size)
        try assertSnapshot(screen(session), named: "dry-run-80x24")
        #expect(try session.explorer.store.load() == before)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("notes.json").path))
    }

    @Test func runRunsThePendingMigrationsForRealOnTheSandbox() async throws {
        var session = try await session()
        await session.press(.runPending, size: Self.size)
        #expect(statuses(session)["0.9"] == "applied")
        #expect(statuses(session)["1.1"] == "skipped: above app version")
        #expect(session.state.message?.text.hasPrefix("Ran 7 steps") == true)
        let notes = try String(contentsOf: folder.appendingPathComponent("notes.json"), encoding: .utf8)
        #expect(notes.contains("\"id\""))
        #expect(notes.contains("\"text\"") && !notes.contains("\"body\""), "0.8 is applied on this device: its notes have text")
        #expect(notes.contains("2021-02-03"))
        await session.handle(.escape, size: Self.size)
        #expect(screen(session).contains("Last run: ✓ succeeded"))
    }

    @Test func aReportScrollsNoFurtherThanItsLastLine() async throws {
        var session = try await session()
        let small = Size(width: 60, height: 14)
        await session.handle(.character("r"), size: small)
        for _ in 0..<50 { await session.handle(.down, size: small) }
        let bottom = session.state.overlayOffset
        #expect(bottom > 0)
        await session.handle(.up, size: small)
        #expect(session.state.overlayOffset == bottom - 1)
    }

    @Test func aFailureShowsItsErrorAndLeavesTheMigrationPending() async throws {
        var session = try await session(failing: "0.10")
        await session.press(.runPending, size: Self.size)
        #expect(statuses(session)["0.9"] == "applied")
        #expect(statuses(session)["0.10"] == "failed")
        #expect(statuses(session)["1.0"] == "pending")
        #expect(session.state.message?.role == .failed)
        #expect(screen(session).contains("the demo was started"))
        #expect(screen(session).contains("Held back until version 0.10"), "the run's summary names what the failure held back")
        await session.handle(.escape, size: Self.size)
        // The run stopped on the failed row, which stays selected.
        #expect(screen(session).contains("Error: Normalise dates to ISO 8601 failed"))
    }

    @Test func resetAsksFirstAndNoIsTheDefault() async throws {
        var session = try await session()
        await session.press(.runPending, size: Self.size)
        await session.handle(.escape, size: Self.size)
        await session.press(.reset, size: Self.size)
        #expect(screen(session).contains("Are you sure?"))
        await session.handle(.enter, size: Self.size)
        #expect(statuses(session)["0.9"] == "applied")
        await session.press(.reset, size: Self.size)
        await session.handle(.character("y"), size: Self.size)
        #expect(statuses(session)["0.9"] == "pending")
        #expect(session.state.message?.text == "Reset: the sandbox is back to a device at 0.8 (build 90)")
    }

    @Test func runningAgainstARealStoreAsksFirst() async throws {
        let store = folder.appendingPathComponent("state.json").path
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var session = try await session(options: ExplorerOptions(store: .jsonFile(store)))
        #expect(screen(session).contains("REAL STORE"))
        await session.press(.runPending, size: Self.size)
        #expect(screen(session).contains("against the real store"))
        await session.handle(.character("n"), size: Self.size)
        #expect(!FileManager.default.fileExists(atPath: store))
        await session.press(.runPending, size: Self.size)
        await session.handle(.character("y"), size: Self.size)
        #expect(FileManager.default.fileExists(atPath: store))
    }

    #if SQLite
    @Test func aSQLiteStoreIsShownByNameAndDomainAndRunsAndResetsForReal() async throws {
        let database = folder.appendingPathComponent("notes.sqlite").path
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var session = try await session(options: ExplorerOptions(store: .sqlite(database, domain: "app")))
        #expect(screen(session).contains("notes.sqlite (app)"))
        #expect(session.state.storeDescription == "SQLite \(database) (app)")
        await session.press(.runPending, size: Self.size)
        await session.handle(.character("y"), size: Self.size)
        #expect(try SQLiteMigrationStore(path: database, domain: "app").load().lastMigratedVersion == "1.0")
        await session.press(.reset, size: Self.size)
        await session.handle(.character("y"), size: Self.size)
        #expect(try SQLiteMigrationStore(path: database, domain: "app").load().lastMigratedVersion == nil)
    }
    #endif

    @Test func changingFromAndToReplans() async throws {
        var session = try await session()
        await session.press(.setFrom, size: Self.size)
        await session.handle(.control("u"), size: Self.size)
        await session.type("0.9", size: Self.size)
        #expect(statuses(session)["0.9"] == "applied")
        await session.press(.setTo, size: Self.size)
        await session.handle(.control("u"), size: Self.size)
        await session.type("1.1", size: Self.size)
        #expect(statuses(session)["1.1"] == "pending")
        #expect(screen(session).contains("Notes 0.9 → 1.1"))
    }

    @Test("a bad version in a prompt is refused with the reason", arguments: ["1.0-beta", "v2", "1..2"])
    func badVersionIsRefused(input: String) async throws {
        var session = try await session()
        await session.press(.setTo, size: Self.size)
        await session.handle(.control("u"), size: Self.size)
        await session.type(input, size: Self.size)
        #expect(session.state.prompt?.error?.contains("is not a version") == true)
        #expect(screen(session).contains("is not a version"))
        await session.handle(.escape, size: Self.size)
        #expect(session.state.prompt == nil)
        #expect(session.explorer.target.version.text == "1.0")
    }

    @Test func anEmptyFromIsAFreshInstall() async throws {
        var session = try await session()
        await session.press(.setFrom, size: Self.size)
        await session.handle(.control("u"), size: Self.size)
        await session.handle(.enter, size: Self.size)
        #expect(statuses(session)["0.5"] == "pending")
    }

    @Test func whatsNewWalksThroughThePagesOfThisUpgrade() async throws {
        var session = try await session()
        await session.press(.whatsNew, size: Self.size)
        #expect(screen(session).contains("What's New in Notes 1.0 · 1 of 3"))
        #expect(screen(session).contains("Your notes now sync across all your devices."))
        await session.handle(.enter, size: Self.size)
        #expect(screen(session).contains("2 of 3"))
        await session.handle(.left, size: Self.size)
        #expect(screen(session).contains("1 of 3"))
        for _ in 0..<3 { await session.handle(.enter, size: Self.size) }
        #expect(session.state.overlay == nil)
    }

    @Test func filterByTextOrStatusAndEscClears() async throws {
        var session = try await session()
        await session.press(.filter, size: Self.size)
        await session.type("skipped", size: Self.size)
        #expect(session.state.items.count == 3)
        #expect(screen(session).contains("filter: skipped (3 shown; Esc clears)"))
        await session.handle(.escape, size: Self.size)
        #expect(session.state.items.count == 12)
        await session.press(.filter, size: Self.size)
        await session.type("nothing like this", size: Self.size, enter: false)
        #expect(screen(session).contains("Nothing matches"))
    }

    @Test func movementKeepsTheSelectionInViewAndInRange() async throws {
        var session = try await session()
        let small = Size(width: 60, height: 14)
        await session.press(.last, size: small)
        #expect(session.state.selection == session.state.items.count - 1)
        #expect(screen(session, size: small).contains("12 of 12"))
        await session.press(.first, size: small)
        #expect(session.state.selection == 0)
        await session.press(.moveUp, size: small)
        #expect(session.state.selection == 0)
        await session.press(.pageDown, size: small)
        #expect(session.state.selection > 0)
        #expect(session.state.tableTop <= session.state.selection)
    }

    @Test func quitAndRedrawAreEffectsAndEscClosesAnOverlayFirst() async throws {
        var session = try await session()
        await session.press(.help, size: Self.size)
        #expect(session.handle(.key(.escape), size: Self.size) == nil)
        #expect(session.state.overlay == nil)
        await session.press(.help, size: Self.size)
        #expect(session.handle(.key(.control("c")), size: Self.size) == .quit, "Ctrl-C quits from an overlay")
        await session.press(.filter, size: Self.size)
        #expect(session.handle(.key(.control("c")), size: Self.size) == .quit, "and from the filter")
        #expect(session.handle(.key(.character("q")), size: Self.size) == nil, "q is typed there")
        #expect(session.handle(.key(.escape), size: Self.size) == nil)
        #expect(session.handle(.key(.control("l")), size: Self.size) == .redraw, "redrawing is the loop's effect")
    }

    // MARK: Keys act only where they show

    /// A state file in the test's folder, for a session on a real store.
    func realStorePath(_ contents: String? = nil) throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("state.json")
        if let contents { try url.write(contents) }
        return url.path
    }

    @Test func underTerminalTooSmallOnlyQuitActs() async throws {
        let store = try realStorePath()
        var session = try await session(options: ExplorerOptions(store: .jsonFile(store)))
        let tiny = Size(width: 45, height: 12)
        for key: Key in [.character("r"), .character("y"), .character("x"), .character("y"), .character("d"), .character("f")] {
            await session.handle(key, size: tiny)
        }
        #expect(!FileManager.default.fileExists(atPath: store), "nothing ran against the real store")
        #expect(session.state.overlay == nil && session.state.prompt == nil)
        #expect(screen(session, size: tiny).contains("terminal too small"))
        #expect(session.handle(.key(.character("q")), size: tiny) == .quit)
    }

    @Test func helpScrollsToItsLastLine() async throws {
        var session = try await session()
        let small = Size(width: 60, height: 16)
        await session.press(.help, size: small)
        #expect(!screen(session, size: small).contains("delete to the end of the line"))
        await session.handle(.end, size: small)
        #expect(screen(session, size: small).contains("delete to the end of the line"))
        let bottom = session.state.overlayOffset
        await session.handle(.down, size: small)
        #expect(session.state.overlayOffset == bottom, "no further than the last line")
        await session.handle(.up, size: small)
        #expect(session.state.overlayOffset == bottom - 1, "and up again at once")
        await session.handle(.home, size: small)
        #expect(session.state.overlayOffset == 0)
    }

    @Test("a main-screen key in an informational overlay closes it and acts",
          arguments: [("x", "Are you sure?"), ("/", "/"), ("f", "From version (build): "), ("t", "App version (build): "),
                      ("w", "What's New in Notes"), ("p", "Problems"), ("?", "Keys"), ("d", "Dry run")])
    func overlaysPassKeysThrough(key: Character, shows: String) async throws {
        for overlay: Action in [.dryRun, .help, .problems] where !(overlay == .help && key == "?") && !(overlay == .problems && key == "p") {
            var session = try await session()
            await session.press(overlay, size: Self.size)
            #expect(session.state.overlay != nil)
            await session.handle(.character(key), size: Self.size)
            #expect(screen(session).contains(shows), "\(key) after \(overlay)")
        }
    }

    @Test func theKeyThatOpenedAnOverlayClosesIt() async throws {
        var session = try await session()
        await session.press(.help, size: Self.size)
        await session.press(.help, size: Self.size)
        #expect(session.state.overlay == nil)
    }

    @Test("the footer shows the keys of the mode, help and quit always", arguments: [50, 80, 120])
    func footerKeepsHelpAndQuit(width: Int) async throws {
        var session = try await session()
        let size = Size(width: width, height: 24)
        func footer() -> String { String(screen(session, size: size).split(separator: "\n").last ?? "") }
        #expect(footer().contains(width > 50 ? "? help" : "? keys") && footer().contains("q quit") && footer().contains("r run"), "\(footer())")
        #expect(footer().contains("p problems") || footer().contains("? keys"), "help lists the keys the footer has no room for")
        await session.press(.dryRun, size: size)
        #expect(footer().contains("Esc close") && footer().contains("q quit"))
        await session.handle(.escape, size: size)
        await session.press(.setTo, size: size)
        #expect(footer().contains("Enter apply") && footer().contains("Esc cancel") && !footer().contains("q quit"))
    }

    // MARK: Prompts

    @Test func promptsEditLikeAShellLine() async throws {
        var session = try await session()
        await session.press(.setTo, size: Self.size)
        await session.handle(.control("u"), size: Self.size)
        #expect(session.state.prompt?.text == "")
        await session.handle(.character("\u{15}"), size: Self.size)
        await session.type("1.1", size: Self.size, enter: false)
        await session.handle(.home, size: Self.size)
        await session.handle(.delete, size: Self.size)
        await session.handle(.character("2"), size: Self.size)
        await session.handle(.end, size: Self.size)
        await session.handle(.left, size: Self.size)
        await session.handle(.backspace, size: Self.size)
        #expect(session.state.prompt?.text == "21")
        await session.handle(.control("a"), size: Self.size)
        await session.handle(.control("k"), size: Self.size)
        await session.type("1.2 0", size: Self.size, enter: false)
        await session.handle(.control("w"), size: Self.size)
        #expect(session.state.prompt?.text == "1.2 ")
        await session.handle(.enter, size: Self.size)
        #expect(session.explorer.target.version.text == "1.2")
    }

    @Test("the value a prompt opens with is replaced by what is typed", arguments: [Action.setFrom, .setTo, .filter])
    func typingReplacesAPrefilledValue(prompt: Action) async throws {
        var session = try await session()
        if prompt == .filter {
            await session.press(.filter, size: Self.size)
            await session.type("pending", size: Self.size)
        }
        await session.press(prompt, size: Self.size)
        let before = try #require(session.state.prompt?.line ?? session.state.filterLine)
        #expect(!before.text.isEmpty && before.isSelected)
        await session.type("0.9", size: Self.size, enter: false)
        #expect((session.state.prompt?.line ?? session.state.filterLine)?.text == "0.9")
    }

    @Test func aPrefilledFromTypedOverIsTheNewFromNotAnAppendedOne() async throws {
        var session = try await session()
        await session.press(.setFrom, size: Self.size)
        #expect(session.state.prompt?.text == "0.8 (90)")
        await session.type("0.9 (95)", size: Self.size)
        #expect(session.state.prompt == nil)
        #expect(session.explorer.from?.text == "0.9" && session.explorer.fromBuild?.text == "95")
    }

    @Test("an editing key first keeps the prefilled value and edits it",
          arguments: [(Key.backspace, "1.0 (1002"), (.left, "1.0 (1002)"), (.home, "21.0 (100)"), (.control("u"), "2")])
    func anEditingKeyKeepsAPrefilledValue(key: Key, edited: String) async throws {
        var session = try await session()
        await session.press(.setTo, size: Self.size)
        #expect(session.state.prompt?.text == "1.0 (100)")
        await session.handle(key, size: Self.size)
        #expect(session.state.prompt?.line.isSelected == false)
        await session.handle(.character("2"), size: Self.size)
        #expect(session.state.prompt?.text == edited)
    }

    @Test func aPrefilledValueShowsSelectedAndTypingClearsTheSelection() async throws {
        var session = try await session()
        await session.press(.setTo, size: Self.size)
        let screen = Render.screen(session.state, size: Self.size, unicode: true)
        let row = Layout(Self.size, for: session.state, unicode: true).messageRow
        let label = " App version (build): "
        #expect((0..<3).allSatisfy { screen.cell(row: row, column: label.count + $0).role == .selection }, "1.0 is drawn selected")
        await session.handle(.character("2"), size: Self.size)
        let typed = Render.screen(session.state, size: Self.size, unicode: true)
        #expect(typed.cell(row: row, column: label.count).role != .selection, "the typed 2 is not selected")
        #expect(typed.cell(row: row, column: label.count + 1).role == .selection, "the cursor follows it")
    }

    @Test func combiningMarksTypedAloneJoinTheirLetter() {
        var line = LineEditor("Caf")
        for character: Character in ["e", "\u{301}", "!"] { line.insert(character) }
        #expect(line.text == "Cafe\u{301}!" && line.cursor == 5)
        line.apply(.home)
        line.insert("\u{301}")
        #expect(line.cursor <= line.text.count)
    }

    @Test func theFromPromptTakesTheBuild() async throws {
        var session = try await session()
        await session.press(.setFrom, size: Self.size)
        #expect(session.state.prompt?.text == "0.8 (90)")
        await session.handle(.control("u"), size: Self.size)
        await session.handle(.enter, size: Self.size)
        #expect(screen(session).contains("Notes fresh install → 1.0 (build none → 100)"))
        await session.press(.setFrom, size: Self.size)
        await session.type("0.8 (95)", size: Self.size)
        #expect(screen(session).contains("Notes 0.8 → 1.0 (build 95 → 100)"))
        #expect(statuses(session)["95"] == "applied")
        await session.press(.setFrom, size: Self.size)
        await session.handle(.control("u"), size: Self.size)
        await session.type("0.8 (9", size: Self.size)
        #expect(session.state.prompt?.error?.contains("parentheses") == true)
    }

    @Test func theToPromptTakesTheBuild() async throws {
        var session = try await session()
        await session.press(.setTo, size: Self.size)
        #expect(session.state.prompt?.text == "1.0 (100)")
        await session.handle(.control("u"), size: Self.size)
        await session.type("1.2 (130)", size: Self.size)
        #expect(session.state.prompt == nil, "refused: \(session.state.prompt?.error ?? "")")
        #expect(session.explorer.target.version.text == "1.2" && session.explorer.target.build?.text == "130")
        #expect(screen(session).contains("Notes 0.8 → 1.2 (build 90 → 130)"))
        #expect(statuses(session)["1.2"] == "pending")
        // A version alone keeps the build.
        await session.press(.setTo, size: Self.size)
        await session.handle(.control("u"), size: Self.size)
        await session.type("1.1", size: Self.size)
        #expect(session.explorer.target.version.text == "1.1" && session.explorer.target.build?.text == "130")
        #expect(session.state.message?.text == "Upgrading to 1.1 (build 130)")
    }

    @Test("a \"to\" that is empty or has a bad build is refused with the reason",
          arguments: [("", "give the app version"), ("1.2 (", "parentheses"), ("(130)", "needs the version"), ("1.2 (13x)", "is not a version")])
    func aBadToIsRefused(input: String, reason: String) async throws {
        var session = try await session()
        await session.press(.setTo, size: Self.size)
        await session.handle(.control("u"), size: Self.size)
        await session.type(input, size: Self.size)
        #expect(session.state.prompt?.error?.contains(reason) == true, "\(session.state.prompt?.error ?? "accepted")")
        #expect(session.explorer.target.version.text == "1.0" && session.explorer.target.build?.text == "100")
    }

    @Test func aPromptErrorWrapsInsteadOfBeingCut() async throws {
        var session = try await session()
        await session.press(.setTo, size: Self.size)
        await session.handle(.control("u"), size: Self.size)
        await session.type("1.0-beta", size: Self.size)
        let text = screen(session)
        #expect(text.contains("such as 1.2.3"), "the whole error shows:\n\(text)")
        #expect(text.contains("? help") == false, "the footer shows the prompt's keys")
    }

    // MARK: Plan errors

    @Test func aCorruptStoreKeepsTheUpgradeAndTheMigrationsOnScreen() async throws {
        let store = try realStorePath("{ not json")
        let session = try await session(options: ExplorerOptions(store: .jsonFile(store)))
        let wide = screen(session, size: Size(width: 150, height: 30))
        #expect(wide.contains("Notes unknown → 1.0 (build unknown → 100)"))
        let text = screen(session)
        #expect(text.contains("? unknown") && text.contains("version 0.9   Add GUIDs to notes"))
        #expect(!text.contains("No migrations registered") && !text.contains("Nothing matches"))
        #expect(session.state.items.count == session.explorer.app.registry.migrations.count)
        let details = text.split(separator: "\n").drop { !$0.hasPrefix("── details") }.dropFirst()
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(details.contains("\(store): is not a migration record"), "the path shows")
        #expect(details.contains("repair it or move it away to start afresh"), "the error shows whole:\n\(text)")
    }

    @Test func aStoreThatBecomesUnreadableClearsTheOldPlan() async throws {
        let store = try realStorePath()
        var session = try await session(options: ExplorerOptions(store: .jsonFile(store)))
        #expect(screen(session).contains("pending"))
        try URL(fileURLWithPath: store).write("{ not json")
        await session.press(.setTo, size: Self.size)
        await session.handle(.enter, size: Self.size)
        #expect(session.state.plan == nil)
        #expect(!screen(session).contains("● pending"))
        #expect(screen(session).contains("Notes unknown → 1.0"))
        #expect(session.state.message?.role == .failed)
        #expect(session.state.message?.text == "No plan: \(store): is not a migration record (not valid JSON); it was left untouched and nothing was run; repair it or move it away to start afresh")
        #expect(screen(session).contains(" No plan: "), "the message says why")
    }

    @Test func anEmptyFromOverARealStoreSimulatesAFreshInstall() async throws {
        let store = try realStorePath()
        var session = try await session(options: ExplorerOptions(store: .jsonFile(store)))
        await session.press(.runPending, size: Self.size)
        await session.handle(.character("y"), size: Self.size)
        await session.handle(.escape, size: Self.size)
        #expect(statuses(session)["0.9"] == "applied")
        let recorded = try URL(fileURLWithPath: store).read()
        await session.press(.setFrom, size: Self.size)
        await session.handle(.control("u"), size: Self.size)
        await session.handle(.enter, size: Self.size)
        #expect(session.state.plan?.state.isFreshInstall == true)
        #expect(screen(session).contains("Notes fresh install → 1.0"))
        #expect(statuses(session)["0.5"] == "pending" && statuses(session)["0.9"] == "pending")
        #expect(session.state.message?.text.contains("fresh install") == true)
        #expect(try URL(fileURLWithPath: store).read() == recorded, "the real store is not touched")
    }

    // MARK: Problems

    @Test func problemsShowInTheirOwnViewAndInTheDetails() async throws {
        var session = try await session()
        #expect(screen(session).contains("2 problems (p)"))
        await session.press(.problems, size: Self.size)
        let text = screen(session)
        #expect(text.contains("Problems"))
        #expect(text.contains("version 0.7 \"Trim spaces around titles\""))
        #expect(text.contains("Hint: Declare migrations in ascending version order"))
        try assertSnapshot(text, named: "problems-80x24")
        await session.handle(.escape, size: Self.size)
        await session.press(.first, size: Self.size)
        await session.press(.moveDown, size: Self.size)
        #expect(screen(session).contains("warning: version 0.7 \"Trim spaces around titles\" is declared after"))
    }

    @Test func aDowngradeIsAProblemAndAHeaderLine() async throws {
        var session = try await session()
        await session.press(.setFrom, size: Self.size)
        await session.handle(.control("u"), size: Self.size)
        await session.type("1.1 (100)", size: Self.size)
        let text = screen(session)
        #expect(text.contains("Downgrade: recorded version 1.1 > app 1.0"))
        #expect(text.contains("nothing runs backwards (p)"), "the whole line fits in 80 columns")
        #expect(text.contains("2 problems (p)"))
        #expect(session.state.message?.role == .warning)
        await session.press(.problems, size: Self.size)
        #expect(screen(session).contains("downgrade: the device recorded 1.1, the app is 1.0"))
    }

    // MARK: Stale positions

    @Test func theTableNeverShowsEmptyUnderAStaleTop() async throws {
        var session = try await session()
        let small = Size(width: 60, height: 14)
        await session.press(.filter, size: small)
        await session.type("pending", size: small)
        await session.press(.last, size: small)
        await session.press(.setTo, size: small)
        await session.handle(.control("u"), size: small)
        await session.type("0.9", size: small)
        let count = session.state.items.count
        #expect(count > 0)
        #expect(screen(session, size: small).contains("\(count) of \(count)"))
        #expect(session.state.tableTop <= session.state.selection)
        #expect(screen(session, size: small).contains("▶"), "the selected row shows")
    }

    @Test func theDetailsScrollNoFurtherThanTheirLastLine() async throws {
        var session = try await session()
        let small = Size(width: 60, height: 14)
        await session.press(.details, size: small)
        for _ in 0..<100 { await session.press(.moveDown, size: small) }
        let bottom = session.state.detailsOffset
        await session.press(.moveUp, size: small)
        #expect(session.state.detailsOffset == max(0, bottom - 1))
        #expect(bottom < 20)
    }

    @Test func aRecordedResultKeepsItsDurationWhenNarrow() async throws {
        let store = try realStorePath()
        var session = try await session(options: ExplorerOptions(store: .jsonFile(store)))
        await session.press(.runPending, size: Self.size)
        await session.handle(.character("y"), size: Self.size)
        var reopened = await Session.opened(explorer: session.explorer)
        await reopened.press(.first, size: Self.size)
        let text = screen(reopened, size: Size(width: 120, height: 35))
        let details = text.split(separator: "\n").compactMap { row in row.split(separator: "│", maxSplits: 1).dropFirst().first }
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(details.contains(/Recorded: succeeded at \S+ in [0-9.]+ m?s/), "the duration shows:\n\(text)")
    }

    // MARK: The demo

    @Test func theDemoPutsItsDataBackOnReset() async throws {
        var session = try await session()
        await session.press(.runPending, size: Self.size)
        guard case .report(let first) = session.state.overlay else { Issue.record("no report"); return }
        await session.handle(.escape, size: Self.size)
        await session.press(.reset, size: Self.size)
        await session.handle(.character("y"), size: Self.size)
        await session.press(.runPending, size: Self.size)
        guard case .report(let second) = session.state.overlay else { Issue.record("no report"); return }
        #expect(first.steps.flatMap(\.log).contains("added a GUID to 3 notes"))
        #expect(second.steps.flatMap(\.log) .contains("added a GUID to 3 notes"))
    }

    @Test func aNewFromStartsWithThatDevicesData() async throws {
        var session = try await session()
        await session.press(.setFrom, size: Self.size)
        await session.handle(.control("u"), size: Self.size)
        await session.type("0.9 (90)", size: Self.size)
        await session.press(.runPending, size: Self.size)
        let notes = try String(contentsOf: folder.appendingPathComponent("notes.json"), encoding: .utf8)
        #expect(notes.contains("\"id\""), "0.9 ran before: the notes have their GUIDs")
        #expect(notes.contains("\"text\""))
    }

    @Test func theDemoNotesAgreeWithTheStatuses() async throws {
        var session = try await session()
        await session.press(.setTo, size: Self.size)
        await session.handle(.control("u"), size: Self.size)
        await session.type("1.1", size: Self.size)
        await session.press(.filter, size: Self.size)
        await session.type("1.1", size: Self.size)
        #expect(screen(session).contains("● pending · runs"))
        #expect(!screen(session).contains("does not run"))
    }

    @Test func theTerminalUIArticlesKeyTablesComeFromTheKeymap() throws {
        let article = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/MigrationExplorer/MigrationExplorer.docc/TheTerminalUI.md")
        #expect(try String(contentsOf: article, encoding: .utf8).contains(Keymap.markdownTable))
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

    static let title = "Cafe\u{301} + 👩\u{200D}💻 + 🇫🇷 + 日本語"

    @Test func graphemeClustersStayWholeAndKeepColumnsAligned() {
        var screen = Screen(size: Size(width: 25, height: 1))
        screen.write(Self.title, row: 0, column: 0)
        screen.write("|", row: 0, column: 23)
        #expect(screen.text == Self.title + "|" + " ")
        #expect(Self.title.displayWidth == 23)
    }

    @Test func controlCharactersAreNeverDrawn() {
        var screen = Screen(size: Size(width: 6, height: 1))
        screen.write("a\u{1B}[2Jb", row: 0, column: 0)
        #expect(screen.text == "a\u{FFFD}[2Jb")
    }

    @Test("what ncurses cells a cluster goes into", arguments: [
        ("e\u{301}", 1, [["e", "\u{301}"]]),
        ("👩\u{200D}💻", 2, [["👩", "\u{200D}", "💻"]]),
        ("🇫🇷", 2, [["🇫"], ["🇷"]]),
        ("👨\u{200D}👩\u{200D}👧\u{200D}👦", 8, [["👨"], ["👩"], ["👧"], ["👦"]]),
        ("❤\u{FE0F}", 1, [["❤", "\u{FE0F}"]]),
    ] as [(Character, Int, [[Unicode.Scalar]])])
    func terminalCells(character: Character, width: Int, cells: [[Unicode.Scalar]]) {
        // The measure of a C library that counts regional indicators one cell each, as glibc does.
        let measure = { (scalar: Unicode.Scalar) in (0x1F1E6...0x1F1FF).contains(scalar.value) ? 1 : scalar.displayWidth }
        #expect(TerminalCells.split(character, width: width, measure: measure) == cells)
    }
}
