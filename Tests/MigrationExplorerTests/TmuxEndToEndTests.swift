import Foundation
import MigrationTestSupport
import Testing
import MigrationCore
@testable import MigrationExplorer

/// The built binary in a real terminal (tmux): what a person sees and types.
@Suite("End to end in tmux", .serialized)
struct TmuxEndToEndTests {
    @Test func exploreDryRunRunResetHelpResizeAndQuit() async throws {
        let tmux = try await Tmux([])
        try await tmux.waitFor("Notes 0.8 → 1.0", "● pending                1 version 0.9", "● pending                3 version 1.0",
                         "○ skipped: above app       version 1.1", "○ skipped: out of order    version 0.7")

        try await tmux.send("f")
        try await tmux.waitFor("From version (build): 0.8 (90)")
        try await tmux.send("C-u")
        try await tmux.type("0.9 (90)")
        try await tmux.send("Enter")
        try await tmux.waitFor("Notes 0.9 → 1.0", "✓ applied                  version 0.9")

        try await tmux.send("t", "C-u")
        try await tmux.type("1.0-beta")
        try await tmux.send("Enter")
        try await tmux.waitFor("is not a version")
        try await tmux.send("Escape", "t", "C-u")
        try await tmux.type("1.1")
        try await tmux.send("Enter")
        try await tmux.waitFor("Notes 0.9 → 1.1", "● pending                3 version 1.1")

        try await tmux.send("d")
        try await tmux.waitFor("Dry run", "Would run, in this order", "would-run version 0.10")
        try await tmux.send("Escape")

        try await tmux.send("r")
        try await tmux.waitFor("Ran 7 steps:", "succeeded version 1.1", "encrypted notes")
        try await tmux.send("Escape")
        try await tmux.waitFor("✓ applied                  version 1.1")

        try await tmux.send("x")
        try await tmux.waitFor("Are you sure?")
        try await tmux.send("y")
        try await tmux.waitFor("Reset: the sandbox is back to a device at 0.9", "● pending                1 version 0.10")

        try await tmux.send("?")
        try await tmux.waitFor("Keys", "What's New walkthrough for this upgrade")
        try await tmux.send("Escape")

        try await tmux.resize(width: 130, height: 30)
        // The run left its last step selected: the build hook.
        try await tmux.waitFor("│ onBuildUpdate · Refresh bundled templates")
        try await tmux.resize(width: 40, height: 10)
        try await tmux.waitFor("terminal too small (need 50×14)")
        try await tmux.resize(width: 80, height: 24)
        try await tmux.waitFor("── details")

        try await tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
    }

    @Test func theUpgradeMatrixOpensAndEnterUpgradesFromARelease() async throws {
        let tmux = try await Tmux(["--manifest", TUIMatrixTests.manifest])
        try await tmux.waitFor("Notes fresh install → 1.0")
        try await tmux.send("m")
        try await tmux.waitFor("Every upgrade of Notes to 1.0", "▶ fresh install     3    2  ●   ●    ●",
                         "  0.10              1    1  ⚠   ✓    ●", "⚠ out of order: the device is past it")
        try await tmux.send("G", "Enter")
        try await tmux.waitFor("Notes 0.10 → 1.0", "○ skipped: out of order    version 0.9", "1 problem (p)",
                         "e.g. 0.10.1")
        try await tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
    }

    @Test("the demo's matrix shows its releases and scrolls sideways; t takes a build", arguments: [Size(width: 80, height: 24), Size(width: 60, height: 18)])
    func theDemosMatrixAndATargetBuild(size: Size) async throws {
        let tmux = try await Tmux([], width: size.width, height: size.height)
        try await tmux.waitFor("Notes 0.8 → 1.0 (build 90 → 100)")
        try await tmux.send("m")
        let matrix = try await tmux.waitFor("Every upgrade of Notes to 1.0", "fresh install", "0.10", "RUNS", "NEW", "so it never")
        #expect(!matrix.contains("No shipped release"), "\(matrix)")
        #expect(matrix.contains("▶ 0.8 "), "it opens on the device the demo plays:\n\(matrix)")
        if size.width < 80 {
            #expect(!matrix.contains(" 1.2 "), "\(matrix)")
            try await tmux.send("Right", "Right", "l", "Right", "Right", "Right", "Right", "Right")
            try await tmux.waitFor(" 1.2 ", "RUNS")
        }
        try await tmux.send("Down", "Enter")
        try await tmux.waitFor("Notes 0.9 → 1.0 (build 95 → 100)")
        try await tmux.send("t", "C-u")
        try await tmux.type("1.2 (130)")
        try await tmux.send("Enter")
        try await tmux.waitFor("Notes 0.9 → 1.2 (build 95 → 130)", "Upgrading to 1.2 (build 130)")
        try await tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
    }

    @Test("b goes back to the real store after f", arguments: [Size(width: 80, height: 24), Size(width: 60, height: 18)])
    func backToTheRealStore(size: Size) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("state.json").path
        #expect(try await Executable.run(["set", "--store", store, "--version", "1.0", "--build", "100"]).status == 0)
        let tmux = try await Tmux(["--store", store], width: size.width, height: size.height)
        try await tmux.waitFor("Notes 1.0 → 1.0", "REAL STORE")
        try await tmux.send("f", "C-u")
        try await tmux.type("0.8 (90)")
        try await tmux.send("Enter")
        try await tmux.waitFor("Notes 0.8 → 1.0 (build 90 → 100)", "sandbox over", "b back")
        try await tmux.send("b")
        try await tmux.waitFor("Notes 1.0 → 1.0 (build 100 → 100)", "REAL STORE", "Back to the real store")
        try await tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
    }

    @Test func writingTheFromDeviceToAPreferencesPlistAsksThenPlaysIt() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plist = folder.appendingPathComponent("prefs.plist").path
        #expect(try await Executable.run(["set", "--defaults-plist", plist, "--version", "1.0", "--build", "100"]).status == 0)
        let tmux = try await Tmux(["--defaults-plist", plist, "--from", "0.8"])
        // The path gives way, never the word "sandbox".
        try await tmux.waitFor("Notes 0.8 → 1.0 (build 100 → 100)", "store: sandbox over …")
        try await tmux.send("s")
        try await tmux.waitFor("Are you sure?", "Write a device at 0.8 (build 100) to the real")
        try await tmux.send("Enter")
        try await tmux.waitFor("Cancelled")
        try await tmux.send("s")
        try await tmux.waitFor("Are you sure?")
        try await tmux.send("y")
        try await tmux.waitFor("REAL STORE", "Wrote a device at 0.8")
        try await tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
        let values = try PropertyListSerialization.propertyList(from: Data(contentsOf: URL(fileURLWithPath: plist)), format: nil) as? [String: Any]
        #expect(values?["MTMigration.lastAppVersion"] as? String == "0.8")
        #expect(values?["MTMigration.lastAppBuild"] as? String == "100")
    }

    @Test func aFailureShowsItsErrorAndStaysPending() async throws {
        let tmux = try await Tmux(["--fail", "0.10"])
        try await tmux.waitFor("Notes 0.8 → 1.0")
        try await tmux.send("r")
        try await tmux.waitFor("✗ failed    version 0.10", "The run stopped at the first failure")
        try await tmux.send("Escape")
        try await tmux.waitFor("✗ failed", "Run stopped at version 0.10")
        try await tmux.send("C-c")
        #expect(try await tmux.exitStatus() == 0)
    }

    @Test func anAppsAsyncAndMainActorBodiesRunInTheTerminalUI() async throws {
        let tmux = try await Tmux([], binary: Executable.embeddedExample)
        try await tmux.waitFor("Recipes")
        try await tmux.send("r")
        try await tmux.waitFor("The migrations' code runs for real")
        try await tmux.send("y")
        #expect(try await !tmux.waitFor("Ran 4 steps").contains("dropped the old cache"), "what a body prints stays off the screen")
        try await tmux.send("Escape")
        try await tmux.waitFor("✓ applied          version 2.1   Index ingredients")
        try await tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
        try await tmux.waitFor("dropped the old cache")
    }

    @Test("a body that exits or crashes during a run leaves the terminal sane and what it printed on stderr",
          arguments: [("exit", [Int32(5)]), ("crash", [128 + SIGILL, 128 + SIGTRAP])])
    func aBodyThatExitsOrCrashesLeavesTheTerminalSane(misbehaviour: String, statuses: [Int32]) async throws {
        // The crash then goes on to Swift's backtracer: off, so that its pages of frames do not
        // push what the body printed off the screen.
        let environment = ["MISBEHAVIOUR": misbehaviour, "SWIFT_BACKTRACE": "enable=no"]
        let tmux = try await Tmux([], height: 90, environment: environment, then: "stty -a", binary: Executable.misbehavingApp)
        try await tmux.waitFor("Misbehaving")
        try await tmux.send("r")
        try await tmux.waitFor("Are you sure?")
        try await tmux.send("y")
        #expect(try await statuses.contains(tmux.exitStatus()), "fatalError traps with SIGILL on x86_64, SIGTRAP on arm64")
        let after = try await tmux.waitFor("icanon", "written to standard error", "printed to standard output")
        #expect(after.contains(" echo ") && !after.contains("Are you sure?"), "the terminal is given back: \(after)")
        if misbehaviour == "crash" { #expect(after.contains("the body crashed on purpose")) }
    }

    @Test func whatsNewWalkthrough() async throws {
        let tmux = try await Tmux([])
        try await tmux.waitFor("Notes 0.8 → 1.0")
        try await tmux.send("w")
        try await tmux.waitFor("What's New in Notes 1.0 · 1 of 3", "Your notes now sync across all your devices.")
        try await tmux.send("Enter")
        try await tmux.waitFor("2 of 3", "Dates are shown in your own locale.")
        try await tmux.send("Enter")
        try await tmux.waitFor("3 of 3", "Filter your notes by tag.")
        try await tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
    }

    @Test func statusColoursAndNoColor() async throws {
        let colored = try await Tmux([])
        let screen = try await colored.waitFor("● pending", colors: true)
        #expect(screen.contains("\u{1B}[33m● pending"), "pending is yellow")
        #expect(screen.contains("\u{1B}[32m✓ applied"), "applied is green")
        try await colored.send("q")

        let plain = try await Tmux([], environment: ["NO_COLOR": "1"])
        let monochrome = try await plain.waitFor("● pending", colors: true)
        #expect(!monochrome.contains("\u{1B}[33m"))
        #expect(monochrome.contains("● pending") && monochrome.contains("○ skipped: above app"))
        try await plain.send("q")
    }

    @Test func planTablesAreColouredOnATerminal() async throws {
        let tmux = try await Tmux(["plan"], height: 40)
        let screen = try await tmux.waitFor("hooks fire", colors: true)
        #expect(screen.contains("\u{1B}[33m●"), "pending is yellow")
        #expect(screen.contains("\u{1B}[33mpending"), "pending is yellow")
        #expect(screen.contains("\u{1B}[32mapplied"), "applied is green")
        #expect(try await tmux.exitStatus() == 0)
    }

    @Test func theExplorerOpensAManifest() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("manifest.json")
        try manifest.write(#"{ "app": "Ledger", "appVersion": "3.0", "migrations": [ { "version": "2.5", "title": "Split accounts", "run": "echo split" } ] }"#)
        let tmux = try await Tmux(["--manifest", manifest.path, "--from", "2.0"])
        try await tmux.waitFor("Ledger 2.0 → 3.0", "● pending     1 version 2.5   Split accounts")
        try await tmux.send("r")
        try await tmux.waitFor("The commands run for real")
        try await tmux.send("y")
        try await tmux.waitFor("succeeded version 2.5", "split")
        try await tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
    }

    @Test func aLocaleThatIsNotUTF8FallsBackToCUTF8() async throws {
        let tmux = try await Tmux([], environment: ["LANG": "C", "LC_ALL": "POSIX"])
        // C.UTF-8 is there on every Debian machine, so the glyphs still show; without any
        // UTF-8 locale the UI draws ASCII (the golden ASCII screen covers that).
        try await tmux.waitFor("Notes 0.8 → 1.0", "● pending", "○ skipped")
        try await tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
    }

    @Test func aTerminalThatCannotDrawExits2() async throws {
        let tmux = try await Tmux([], environment: ["TERM": "dumb"])
        #expect(try await tmux.exitStatus() == 2)
        let screen = try await tmux.capture().replacingOccurrences(of: "\n", with: "")
        #expect(screen.contains("needs a terminal, but TERM is \"dumb\""))
    }

    @Test func sigtermRestoresTheTerminal() async throws {
        let tmux = try await Tmux([])
        try await tmux.waitFor("Notes 0.8 → 1.0")
        try await tmux.signalCommand(SIGTERM)
        #expect(try await tmux.exitStatus() == 143)
        #expect(try await tmux.capture().contains("Notes 0.8") == false, "the terminal was given back (the alternate screen is gone)")
    }
}

/// The reported terminal defects, each in the real binary in tmux.
@Suite("The terminal is left sane and shows what it does", .serialized)
struct TmuxTerminalDefectTests {
    /// What `stty -a` printed in the pane after the binary exited, on one line (its local
    /// modes, `icanon` and `echo` among them, end with `extproc`).
    func sttyAfterExit(_ tmux: Tmux) async throws -> String {
        try await tmux.waitFor("speed", "extproc").replacingOccurrences(of: "\n", with: " ")
    }

    @Test("a start-up error prints normally and leaves the terminal as it was", arguments: [
        ["--from", "1.x"], ["--to", ""], ["--manifest", "missing.json"], ["--store", "corrupt.json", "--from", "0.8"],
    ])
    func startUpErrorLeavesTheTerminalSane(arguments: [String]) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try folder.appendingPathComponent("corrupt.json").write("{ not json")
        let resolved = arguments.map { $0.hasSuffix(".json") ? folder.appendingPathComponent($0).path : $0 }
        let tmux = try await Tmux(resolved, then: "stty -a")
        #expect(try await tmux.exitStatus() == 65)
        let stty = try await sttyAfterExit(tmux)
        #expect(stty.contains(" icanon ") && stty.contains(" echo ") && stty.contains(" onlcr "), "stty -a: \(stty)")
        let lines = try await tmux.capture().split(separator: "\n")
        #expect(lines.first?.hasPrefix("migration-explorer: ") == true, "the message starts its own line: \(lines)")
    }

    @Test func underTerminalTooSmallRAndYRunNothing() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("state.json")
        let tmux = try await Tmux(["--store", store.path], width: 45, height: 12)
        try await tmux.waitFor("terminal too small")
        try await tmux.send("r")
        try await tmux.send("y")
        try await tmux.resize(width: 80, height: 24)
        try await tmux.waitFor("REAL STORE", "● pending")
        #expect(!FileManager.default.fileExists(atPath: store.path), "nothing ran against the real store")
        try await tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
    }

    @Test func underTerminalTooSmallXAndYResetNothing() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("state.json")
        #expect(try await Executable.run(["run", "--store", store.path]).status == 0)
        let recorded = try Data(contentsOf: store)
        let tmux = try await Tmux(["--store", store.path], width: 45, height: 12)
        try await tmux.waitFor("terminal too small")
        try await tmux.send("x")
        try await tmux.send("y")
        try await tmux.resize(width: 80, height: 24)
        try await tmux.waitFor("REAL STORE", "✓ applied")
        #expect(try Data(contentsOf: store) == recorded, "the real store was not reset")
        try await tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
    }

    @Test func helpReachesItsLastLine() async throws {
        let tmux = try await Tmux([], width: 60, height: 16)
        try await tmux.waitFor("Notes 0.8")
        try await tmux.send("?")
        try await tmux.waitFor("Keys", "move up")
        try await tmux.send("NPage")
        try await tmux.waitFor("11-")
        try await tmux.send("G")
        try await tmux.waitFor("delete to the end of the line")
        try await tmux.send("Escape")
        try await tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
    }

    static let title = "Cafe\u{301} + 👩\u{200D}💻 + 🇫🇷 + 日本語"

    @Test func aUnicodeTitleReadsBackWholeAndKeepsTheColumns() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("manifest.json")
        let document: [String: Any] = ["app": "Ledger", "appVersion": "3.0", "migrations": [
            ["version": "2.5", "title": Self.title], ["version": "2.6", "title": "Plain"],
        ]]
        try JSONSerialization.data(withJSONObject: document).write(to: manifest)
        let tmux = try await Tmux(["--manifest", manifest.path, "--from", "2.0"], width: 130, height: 30)
        let screen = try await tmux.waitFor("Ledger 2.0 → 3.0", "Plain")
        let rows = screen.split(separator: "\n").filter { $0.contains(Self.title) }
        #expect(rows.count == 2, "in the table and the details:\n\(screen)")
        let table = try #require(rows.first)
        let separator = try #require(table.firstIndex(of: "│"))
        #expect(table[..<separator].displayWidth == Layout(Size(width: 130, height: 30)).tableWidth, "no column shifts: \(table)")
        try await tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
    }

    @Test("a termination signal gives the terminal back and exits 128 + the signal", arguments: [SIGHUP, SIGINT, SIGTERM])
    func signalsRestoreTheTerminal(signal: Int32) async throws {
        let tmux = try await Tmux([], then: "stty -a")
        try await tmux.waitFor("Notes 0.8 → 1.0")
        try await tmux.signalCommand(signal)
        #expect(try await tmux.exitStatus() == 128 + signal)
        let stty = try await sttyAfterExit(tmux)
        #expect(stty.contains(" icanon ") && stty.contains(" echo "), "stty -a: \(stty)")
        #expect(!stty.contains("Notes 0.8"), "the alternate screen is gone")
    }

    @Test func aSignalDuringARunEndsTheRunningCommandAndKeepsTheFinishedStepsRecorded() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("manifest.json"), store = folder.appendingPathComponent("state.json")
        try manifest.write(#"{ "app": "Ledger", "appVersion": "3.0", "migrations": [ { "version": "2.5", "title": "Quick", "run": "true" }, { "version": "2.6", "title": "Hangs", "run": "echo $$ > pid; sleep 1000" }, { "version": "2.7", "title": "After", "run": "touch after" } ] }"#)
        let tmux = try await Tmux(["--manifest", manifest.path, "--store", store.path], then: "stty -a")
        try await tmux.waitFor("Ledger fresh install → 3.0")
        try await tmux.send("r")
        try await tmux.waitFor("Are you sure?")
        try await tmux.send("y")
        let shell = try await pidWritten(to: folder.appendingPathComponent("pid"))
        try await tmux.signalCommand(SIGTERM)
        #expect(try await tmux.exitStatus() == 143)
        await #expect(try sttyAfterExit(tmux).contains(" icanon "))
        #expect(kill(shell, 0) != 0, "the running command's group is ended")
        let recorded = try store.read()
        #expect(recorded.contains(#""lastMigratedVersion":"2.5""#), "the finished step is recorded: \(recorded)")
        let state = try FileMigrationStore(url: store).load()
        #expect(!state.history.contains { $0.identifier == "2.6" }, "the cancelled step is not recorded: \(recorded)")
        #expect(state.attempts.isEmpty, "its start was taken back: a cancellation is no interruption: \(recorded)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("after").path))
    }

    @Test func aSecondCtrlCWhileTheRunningStepIgnoresCancellingQuitsAtOnce() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("manifest.json"), store = folder.appendingPathComponent("state.json")
        try manifest.write(#"{ "app": "Ledger", "appVersion": "3.0", "migrations": [ { "version": "2.5", "title": "Quick", "run": "true" }, { "version": "2.6", "title": "Stubborn", "run": "trap '' TERM; echo $$ > pid; sleep 1000" }, { "version": "2.7", "title": "After", "run": "touch after" } ] }"#)
        // A grace no test outlives: the step ends by the second Ctrl-C, never by SIGKILL at the
        // end of its grace (2 s by default, which a busy machine can spend between two keys).
        let tmux = try await Tmux(["--manifest", manifest.path, "--store", store.path, "--kill-after", "3600"], then: "stty -a")
        try await tmux.waitFor("Ledger fresh install → 3.0")
        try await tmux.send("r")
        try await tmux.waitFor("Are you sure?")
        try await tmux.send("y")
        let shell = try await pidWritten(to: folder.appendingPathComponent("pid"))
        try await tmux.send("Escape")
        try await tmux.waitFor("cancelling: waiting for the running step to stop")
        try await tmux.send("C-c")
        #expect(try await tmux.exitStatus() == 130)
        await #expect(try sttyAfterExit(tmux).contains(" icanon "))
        #expect(try await tmux.waitFor("gave up waiting for 2.6").contains("runs again next time"))
        #expect(await processIsGone(shell), "the stubborn command's group is killed")
        #expect(try store.read().contains(#""lastMigratedVersion":"2.5""#))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("after").path))
    }

    @Test func theDemoRemovesItsTemporaryFolder() async throws {
        let temporary = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: temporary) }
        let tmux = try await Tmux([], environment: ["TMPDIR": temporary.path])
        try await tmux.waitFor("Notes 0.8 → 1.0")
        try await tmux.send("r")
        try await tmux.waitFor("Ran 7 steps")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).count == 1, "the run wrote the demo's notes")
        try await tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty)

        _ = try await Executable.run(["run"], environment: ["TMPDIR": temporary.path])
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path).isEmpty, "the command line too")
    }

    @Test func thousandsOfRandomKeysAndResizesNeverCrashOrHang() async throws {
        let tmux = try await Tmux([])
        try await tmux.waitFor("Notes 0.8 → 1.0")
        var random = SplitMix(state: 9)
        let keys = ["r", "y", "x", "n", "d", "f", "t", "w", "p", "?", "/", "0", ".", "1", "(", ")", "Enter", "Escape", "Up", "Down",
                    "PageUp", "PageDown", "Home", "End", "Tab", "Left", "Right", "BSpace", "DC", "C-u", "C-w", "C-k", "C-a", "C-l", "j", "k", "G", "g"]
        for _ in 0..<20 {
            try await tmux.send((0..<40).map { _ in keys[Int(random.next() % UInt64(keys.count))] })
            try await tmux.resize(width: 30 + Int(random.next() % 110), height: 8 + Int(random.next() % 32))
        }
        try await tmux.resize(width: 80, height: 24)
        // Esc until the table is back with nothing open and no run going (its footer offers
        // details and no Esc), each Esc on its own once the screen has changed: an Esc read
        // together with the key after it is that key with Alt; a run the keys started ends
        // (or is cancelled) and its report opens after a while.
        let idle = { (screen: String) in screen.contains("Enter details") && !screen.contains("Esc c") }
        for _ in 0..<20 {
            let shown = try await tmux.capture()
            if idle(shown), try await tmux.screen(within: 0.5, where: { !idle($0) }) == nil { break }
            try await tmux.send("Escape")
            _ = try await tmux.screen(within: 2) { $0 != shown }
        }
        try await tmux.send("/")
        try await tmux.type("zz")
        try await tmux.waitFor("/zz", seconds: 30)
        try await tmux.send("Escape")
        try await tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
    }
}
