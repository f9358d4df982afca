import Foundation
import MigrationTestSupport
import Testing
import MigrationCore
@testable import MigrationExplorer

/// The built binary in a real terminal (tmux): what a person sees and types.
@Suite("End to end in tmux", .serialized)
struct TmuxEndToEndTests {
    @Test func exploreDryRunRunResetHelpResizeAndQuit() throws {
        let tmux = try Tmux([])
        try tmux.waitFor("Notes 0.8 → 1.0", "● pending                1 version 0.9", "● pending                3 version 1.0",
                         "○ skipped: above app       version 1.1", "○ skipped: out of order    version 0.7")

        try tmux.send("f")
        try tmux.waitFor("From version (build): 0.8 (90)")
        try tmux.send("C-u")
        try tmux.type("0.9 (90)")
        try tmux.send("Enter")
        try tmux.waitFor("Notes 0.9 → 1.0", "✓ applied                  version 0.9")

        try tmux.send("t", "C-u")
        try tmux.type("1.0-beta")
        try tmux.send("Enter")
        try tmux.waitFor("is not a version")
        try tmux.send("Escape", "t", "C-u")
        try tmux.type("1.1")
        try tmux.send("Enter")
        try tmux.waitFor("Notes 0.9 → 1.1", "● pending                3 version 1.1")

        try tmux.send("d")
        try tmux.waitFor("Dry run", "Would run, in this order", "would-run version 0.10")
        try tmux.send("Escape")

        try tmux.send("r")
        try tmux.waitFor("Ran 7 steps:", "succeeded version 1.1", "encrypted notes")
        try tmux.send("Escape")
        try tmux.waitFor("✓ applied                  version 1.1")

        try tmux.send("x")
        try tmux.waitFor("Are you sure?")
        try tmux.send("y")
        try tmux.waitFor("Reset: the sandbox is back to a device at 0.9", "● pending                1 version 0.10")

        try tmux.send("?")
        try tmux.waitFor("Keys", "What's New walkthrough for this upgrade")
        try tmux.send("Escape")

        try tmux.resize(width: 130, height: 30)
        // The run left its last step selected: the build hook.
        try tmux.waitFor("│ onBuildUpdate · Refresh bundled templates")
        try tmux.resize(width: 40, height: 10)
        try tmux.waitFor("terminal too small (need 50×14)")
        try tmux.resize(width: 80, height: 24)
        try tmux.waitFor("── details")

        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
    }

    @Test func theUpgradeMatrixOpensAndEnterUpgradesFromARelease() throws {
        let tmux = try Tmux(["--manifest", TUIMatrixTests.manifest])
        try tmux.waitFor("Notes fresh install → 1.0")
        try tmux.send("m")
        try tmux.waitFor("Every upgrade of Notes to 1.0", "▶ fresh install     3    2  ●   ●    ●",
                         "  0.10              1    1  ⚠   ✓    ●", "⚠ out of order: the device is past it")
        try tmux.send("G", "Enter")
        try tmux.waitFor("Notes 0.10 → 1.0", "○ skipped: out of order    version 0.9", "1 problem (p)",
                         "e.g. 0.10.1")
        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
    }

    @Test("the demo's matrix shows its releases and scrolls sideways; t takes a build", arguments: [Size(width: 80, height: 24), Size(width: 60, height: 18)])
    func theDemosMatrixAndATargetBuild(size: Size) throws {
        let tmux = try Tmux([], width: size.width, height: size.height)
        try tmux.waitFor("Notes 0.8 → 1.0 (build 90 → 100)")
        try tmux.send("m")
        let matrix = try tmux.waitFor("Every upgrade of Notes to 1.0", "fresh install", "0.10", "RUNS", "NEW", "so it never")
        #expect(!matrix.contains("No shipped release"), "\(matrix)")
        #expect(matrix.contains("▶ 0.8 "), "it opens on the device the demo plays:\n\(matrix)")
        if size.width < 80 {
            #expect(!matrix.contains(" 1.2 "), "\(matrix)")
            try tmux.send("Right", "Right", "l", "Right", "Right", "Right", "Right", "Right")
            try tmux.waitFor(" 1.2 ", "RUNS")
        }
        try tmux.send("Down", "Enter")
        try tmux.waitFor("Notes 0.9 → 1.0 (build 95 → 100)")
        try tmux.send("t", "C-u")
        try tmux.type("1.2 (130)")
        try tmux.send("Enter")
        try tmux.waitFor("Notes 0.9 → 1.2 (build 95 → 130)", "Upgrading to 1.2 (build 130)")
        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
    }

    @Test("b goes back to the real store after f", arguments: [Size(width: 80, height: 24), Size(width: 60, height: 18)])
    func backToTheRealStore(size: Size) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("state.json").path
        #expect(try await Executable.run(["set", "--store", store, "--version", "1.0", "--build", "100"]).status == 0)
        let tmux = try Tmux(["--store", store], width: size.width, height: size.height)
        try tmux.waitFor("Notes 1.0 → 1.0", "REAL STORE")
        try tmux.send("f", "C-u")
        try tmux.type("0.8 (90)")
        try tmux.send("Enter")
        try tmux.waitFor("Notes 0.8 → 1.0 (build 90 → 100)", "sandbox over", "b back")
        try tmux.send("b")
        try tmux.waitFor("Notes 1.0 → 1.0 (build 100 → 100)", "REAL STORE", "Back to the real store")
        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
    }

    @Test func writingTheFromDeviceToAPreferencesPlistAsksThenPlaysIt() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plist = folder.appendingPathComponent("prefs.plist").path
        #expect(try await Executable.run(["set", "--defaults-plist", plist, "--version", "1.0", "--build", "100"]).status == 0)
        let tmux = try Tmux(["--defaults-plist", plist, "--from", "0.8"])
        // The path gives way, never the word "sandbox".
        try tmux.waitFor("Notes 0.8 → 1.0 (build 100 → 100)", "store: sandbox over …")
        try tmux.send("s")
        try tmux.waitFor("Are you sure?", "Write a device at 0.8 (build 100) to the real")
        try tmux.send("Enter")
        try tmux.waitFor("Cancelled")
        try tmux.send("s")
        try tmux.waitFor("Are you sure?")
        try tmux.send("y")
        try tmux.waitFor("REAL STORE", "Wrote a device at 0.8")
        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
        let values = try PropertyListSerialization.propertyList(from: Data(contentsOf: URL(fileURLWithPath: plist)), format: nil) as? [String: Any]
        #expect(values?["MTMigration.lastAppVersion"] as? String == "0.8")
        #expect(values?["MTMigration.lastAppBuild"] as? String == "100")
    }

    @Test func aFailureShowsItsErrorAndStaysPending() throws {
        let tmux = try Tmux(["--fail", "0.10"])
        try tmux.waitFor("Notes 0.8 → 1.0")
        try tmux.send("r")
        try tmux.waitFor("✗ failed    version 0.10", "The run stopped at the first failure")
        try tmux.send("Escape")
        try tmux.waitFor("✗ failed", "Run stopped at version 0.10")
        try tmux.send("C-c")
        #expect(try tmux.exitStatus() == 0)
    }

    @Test func anAppsAsyncAndMainActorBodiesRunInTheTerminalUI() throws {
        let tmux = try Tmux([], binary: Executable.embeddedExample)
        try tmux.waitFor("Recipes")
        try tmux.send("r")
        try tmux.waitFor("The migrations' code runs for real")
        try tmux.send("y")
        #expect(try !tmux.waitFor("Ran 4 steps").contains("dropped the old cache"), "what a body prints stays off the screen")
        try tmux.send("Escape")
        try tmux.waitFor("✓ applied          version 2.1   Index ingredients")
        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
        try tmux.waitFor("dropped the old cache")
    }

    @Test("a body that exits or crashes during a run leaves the terminal sane and what it printed on stderr",
          arguments: [("exit", [Int32(5)]), ("crash", [128 + SIGILL, 128 + SIGTRAP])])
    func aBodyThatExitsOrCrashesLeavesTheTerminalSane(misbehaviour: String, statuses: [Int32]) throws {
        // The crash then goes on to Swift's backtracer: off, so that its pages of frames do not
        // push what the body printed off the screen.
        let environment = ["MISBEHAVIOUR": misbehaviour, "SWIFT_BACKTRACE": "enable=no"]
        let tmux = try Tmux([], height: 90, environment: environment, then: "stty -a", binary: Executable.misbehavingApp)
        try tmux.waitFor("Misbehaving")
        try tmux.send("r")
        try tmux.waitFor("Are you sure?")
        try tmux.send("y")
        #expect(try statuses.contains(tmux.exitStatus()), "fatalError traps with SIGILL on x86_64, SIGTRAP on arm64")
        let after = try tmux.waitFor("icanon", "written to standard error", "printed to standard output")
        #expect(after.contains(" echo ") && !after.contains("Are you sure?"), "the terminal is given back: \(after)")
        if misbehaviour == "crash" { #expect(after.contains("the body crashed on purpose")) }
    }

    @Test func whatsNewWalkthrough() throws {
        let tmux = try Tmux([])
        try tmux.waitFor("Notes 0.8 → 1.0")
        try tmux.send("w")
        try tmux.waitFor("What's New in Notes 1.0 · 1 of 3", "Your notes now sync across all your devices.")
        try tmux.send("Enter")
        try tmux.waitFor("2 of 3", "Dates are shown in your own locale.")
        try tmux.send("Enter")
        try tmux.waitFor("3 of 3", "Filter your notes by tag.")
        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
    }

    @Test func statusColoursAndNoColor() throws {
        let colored = try Tmux([])
        let screen = try colored.waitFor("● pending", colors: true)
        #expect(screen.contains("\u{1B}[33m● pending"), "pending is yellow")
        #expect(screen.contains("\u{1B}[32m✓ applied"), "applied is green")
        try colored.send("q")

        let plain = try Tmux([], environment: ["NO_COLOR": "1"])
        let monochrome = try plain.waitFor("● pending", colors: true)
        #expect(!monochrome.contains("\u{1B}[33m"))
        #expect(monochrome.contains("● pending") && monochrome.contains("○ skipped: above app"))
        try plain.send("q")
    }

    @Test func planTablesAreColouredOnATerminal() throws {
        let tmux = try Tmux(["plan"], height: 40)
        let screen = try tmux.waitFor("hooks fire", colors: true)
        #expect(screen.contains("\u{1B}[33m●"), "pending is yellow")
        #expect(screen.contains("\u{1B}[33mpending"), "pending is yellow")
        #expect(screen.contains("\u{1B}[32mapplied"), "applied is green")
        #expect(try tmux.exitStatus() == 0)
    }

    @Test func theExplorerOpensAManifest() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("manifest.json")
        try manifest.write(#"{ "app": "Ledger", "appVersion": "3.0", "migrations": [ { "version": "2.5", "title": "Split accounts", "run": "echo split" } ] }"#)
        let tmux = try Tmux(["--manifest", manifest.path, "--from", "2.0"])
        try tmux.waitFor("Ledger 2.0 → 3.0", "● pending     1 version 2.5   Split accounts")
        try tmux.send("r")
        try tmux.waitFor("The commands run for real")
        try tmux.send("y")
        try tmux.waitFor("succeeded version 2.5", "split")
        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
    }

    @Test func aLocaleThatIsNotUTF8FallsBackToCUTF8() throws {
        let tmux = try Tmux([], environment: ["LANG": "C", "LC_ALL": "POSIX"])
        // C.UTF-8 is there on every Debian machine, so the glyphs still show; without any
        // UTF-8 locale the UI draws ASCII (the golden ASCII screen covers that).
        try tmux.waitFor("Notes 0.8 → 1.0", "● pending", "○ skipped")
        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
    }

    @Test func aTerminalThatCannotDrawExits2() throws {
        let tmux = try Tmux([], environment: ["TERM": "dumb"])
        #expect(try tmux.exitStatus() == 2)
        let screen = try tmux.capture().replacingOccurrences(of: "\n", with: "")
        #expect(screen.contains("needs a terminal, but TERM is \"dumb\""))
    }

    @Test func sigtermRestoresTheTerminal() throws {
        let tmux = try Tmux([])
        try tmux.waitFor("Notes 0.8 → 1.0")
        try tmux.signalCommand(SIGTERM)
        #expect(try tmux.exitStatus() == 143)
        #expect(try tmux.capture().contains("Notes 0.8") == false, "the terminal was given back (the alternate screen is gone)")
    }
}

/// The reported terminal defects, each in the real binary in tmux.
@Suite("The terminal is left sane and shows what it does", .serialized)
struct TmuxTerminalDefectTests {
    /// What `stty -a` printed in the pane after the binary exited, on one line (its local
    /// modes, `icanon` and `echo` among them, end with `extproc`).
    func sttyAfterExit(_ tmux: Tmux) throws -> String {
        try tmux.waitFor("speed", "extproc").replacingOccurrences(of: "\n", with: " ")
    }

    @Test("a start-up error prints normally and leaves the terminal as it was", arguments: [
        ["--from", "1.x"], ["--to", ""], ["--manifest", "missing.json"], ["--store", "corrupt.json", "--from", "0.8"],
    ])
    func startUpErrorLeavesTheTerminalSane(arguments: [String]) throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try folder.appendingPathComponent("corrupt.json").write("{ not json")
        let resolved = arguments.map { $0.hasSuffix(".json") ? folder.appendingPathComponent($0).path : $0 }
        let tmux = try Tmux(resolved, then: "stty -a")
        #expect(try tmux.exitStatus() == 65)
        let stty = try sttyAfterExit(tmux)
        #expect(stty.contains(" icanon ") && stty.contains(" echo ") && stty.contains(" onlcr "), "stty -a: \(stty)")
        let lines = try tmux.capture().split(separator: "\n")
        #expect(lines.first?.hasPrefix("migration-explorer: ") == true, "the message starts its own line: \(lines)")
    }

    @Test func underTerminalTooSmallRAndYRunNothing() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("state.json")
        let tmux = try Tmux(["--store", store.path], width: 45, height: 12)
        try tmux.waitFor("terminal too small")
        try tmux.send("r")
        try tmux.send("y")
        try tmux.resize(width: 80, height: 24)
        try tmux.waitFor("REAL STORE", "● pending")
        #expect(!FileManager.default.fileExists(atPath: store.path), "nothing ran against the real store")
        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
    }

    @Test func underTerminalTooSmallXAndYResetNothing() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("state.json")
        #expect(try await Executable.run(["run", "--store", store.path]).status == 0)
        let recorded = try Data(contentsOf: store)
        let tmux = try Tmux(["--store", store.path], width: 45, height: 12)
        try tmux.waitFor("terminal too small")
        try tmux.send("x")
        try tmux.send("y")
        try tmux.resize(width: 80, height: 24)
        try tmux.waitFor("REAL STORE", "✓ applied")
        #expect(try Data(contentsOf: store) == recorded, "the real store was not reset")
        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
    }

    @Test func helpReachesItsLastLine() throws {
        let tmux = try Tmux([], width: 60, height: 16)
        try tmux.waitFor("Notes 0.8")
        try tmux.send("?")
        try tmux.waitFor("Keys", "move up")
        try tmux.send("NPage")
        try tmux.waitFor("11-")
        try tmux.send("G")
        try tmux.waitFor("delete to the end of the line")
        try tmux.send("Escape")
        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
    }

    static let title = "Cafe\u{301} + 👩\u{200D}💻 + 🇫🇷 + 日本語"

    @Test func aUnicodeTitleReadsBackWholeAndKeepsTheColumns() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("manifest.json")
        let document: [String: Any] = ["app": "Ledger", "appVersion": "3.0", "migrations": [
            ["version": "2.5", "title": Self.title], ["version": "2.6", "title": "Plain"],
        ]]
        try JSONSerialization.data(withJSONObject: document).write(to: manifest)
        let tmux = try Tmux(["--manifest", manifest.path, "--from", "2.0"], width: 130, height: 30)
        let screen = try tmux.waitFor("Ledger 2.0 → 3.0", "Plain")
        let rows = screen.split(separator: "\n").filter { $0.contains(Self.title) }
        #expect(rows.count == 2, "in the table and the details:\n\(screen)")
        let table = try #require(rows.first)
        let separator = try #require(table.firstIndex(of: "│"))
        #expect(table[..<separator].displayWidth == Layout(Size(width: 130, height: 30)).tableWidth, "no column shifts: \(table)")
        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
    }

    @Test("a termination signal gives the terminal back and exits 128 + the signal", arguments: [SIGHUP, SIGINT, SIGTERM])
    func signalsRestoreTheTerminal(signal: Int32) throws {
        let tmux = try Tmux([], then: "stty -a")
        try tmux.waitFor("Notes 0.8 → 1.0")
        try tmux.signalCommand(signal)
        #expect(try tmux.exitStatus() == 128 + signal)
        let stty = try sttyAfterExit(tmux)
        #expect(stty.contains(" icanon ") && stty.contains(" echo "), "stty -a: \(stty)")
        #expect(!stty.contains("Notes 0.8"), "the alternate screen is gone")
    }

    @Test func aSignalDuringARunEndsTheRunningCommandAndKeepsTheFinishedStepsRecorded() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("manifest.json"), store = folder.appendingPathComponent("state.json")
        try manifest.write(#"{ "app": "Ledger", "appVersion": "3.0", "migrations": [ { "version": "2.5", "title": "Quick", "run": "true" }, { "version": "2.6", "title": "Hangs", "run": "echo $$ > pid; sleep 1000" }, { "version": "2.7", "title": "After", "run": "touch after" } ] }"#)
        let tmux = try Tmux(["--manifest", manifest.path, "--store", store.path], then: "stty -a")
        try tmux.waitFor("Ledger fresh install → 3.0")
        try tmux.send("r")
        try tmux.waitFor("Are you sure?")
        try tmux.send("y")
        let shell = try pidWritten(to: folder.appendingPathComponent("pid"))
        try tmux.signalCommand(SIGTERM)
        #expect(try tmux.exitStatus() == 143)
        #expect(try sttyAfterExit(tmux).contains(" icanon "))
        #expect(kill(shell, 0) != 0, "the running command's group is ended")
        let recorded = try store.read()
        #expect(recorded.contains(#""lastMigratedVersion":"2.5""#), "the finished step is recorded: \(recorded)")
        let state = try FileMigrationStore(url: store).load()
        #expect(!state.history.contains { $0.identifier == "2.6" }, "the cancelled step is not recorded: \(recorded)")
        #expect(state.attempts.isEmpty, "its start was taken back: a cancellation is no interruption: \(recorded)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("after").path))
    }

    @Test func aSecondCtrlCWhileTheRunningStepIgnoresCancellingQuitsAtOnce() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("manifest.json"), store = folder.appendingPathComponent("state.json")
        try manifest.write(#"{ "app": "Ledger", "appVersion": "3.0", "migrations": [ { "version": "2.5", "title": "Quick", "run": "true" }, { "version": "2.6", "title": "Stubborn", "run": "trap '' TERM; echo $$ > pid; sleep 1000" }, { "version": "2.7", "title": "After", "run": "touch after" } ] }"#)
        let tmux = try Tmux(["--manifest", manifest.path, "--store", store.path], then: "stty -a")
        try tmux.waitFor("Ledger fresh install → 3.0")
        try tmux.send("r")
        try tmux.waitFor("Are you sure?")
        try tmux.send("y")
        let shell = try pidWritten(to: folder.appendingPathComponent("pid"))
        try tmux.send("Escape")
        try tmux.waitFor("cancelling: waiting for the running step to stop")
        try tmux.send("C-c")
        #expect(try tmux.exitStatus() == 130)
        #expect(try sttyAfterExit(tmux).contains(" icanon "))
        #expect(try tmux.waitFor("gave up waiting for 2.6").contains("runs again next time"))
        #expect(processIsGone(shell), "the stubborn command's group is killed")
        #expect(try store.read().contains(#""lastMigratedVersion":"2.5""#))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("after").path))
    }

    @Test func theDemoRemovesItsTemporaryFolder() async throws {
        let temporary = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: temporary) }
        let tmux = try Tmux([], environment: ["TMPDIR": temporary.path])
        try tmux.waitFor("Notes 0.8 → 1.0")
        try tmux.send("r")
        try tmux.waitFor("Ran 7 steps")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).count == 1, "the run wrote the demo's notes")
        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)

        _ = try await Executable.run(["run"], environment: ["TMPDIR": temporary.path])
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty, "the command line too")
    }

    @Test func thousandsOfRandomKeysAndResizesNeverCrashOrHang() throws {
        let tmux = try Tmux([])
        try tmux.waitFor("Notes 0.8 → 1.0")
        var random = SplitMix(state: 9)
        let keys = ["r", "y", "x", "n", "d", "f", "t", "w", "p", "?", "/", "0", ".", "1", "(", ")", "Enter", "Escape", "Up", "Down",
                    "PageUp", "PageDown", "Home", "End", "Tab", "Left", "Right", "BSpace", "DC", "C-u", "C-w", "C-k", "C-a", "C-l", "j", "k", "G", "g"]
        for _ in 0..<20 {
            try tmux.send((0..<40).map { _ in keys[Int(random.next() % UInt64(keys.count))] })
            try tmux.resize(width: 30 + Int(random.next() % 110), height: 8 + Int(random.next() % 32))
        }
        try tmux.resize(width: 80, height: 24)
        try tmux.send(["Escape", "Escape", "Escape", "/"])
        try tmux.type("zz")
        try tmux.waitFor("/zz", seconds: 30)
        try tmux.send("Escape")
        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
    }
}
