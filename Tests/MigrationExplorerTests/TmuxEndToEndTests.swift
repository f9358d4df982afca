import Foundation
import Testing

/// The built binary in a real terminal (tmux): what a person sees and types.
@Suite("End to end in tmux", .serialized)
struct TmuxEndToEndTests {
    @Test func exploreDryRunRunResetHelpResizeAndQuit() throws {
        let tmux = try Tmux([])
        try tmux.waitFor("Notes 0.8 → 1.0", "● pending             1 version 0.9", "● pending             3 version 1.0",
                         "○ skipped: above app    version 1.1")

        try tmux.send("f")
        try tmux.waitFor("From version (empty: fresh install): 0.8_")
        try tmux.send("BSpace", "BSpace", "BSpace")
        try tmux.type("0.9")
        try tmux.send("Enter")
        try tmux.waitFor("Notes 0.9 → 1.0", "✓ applied               version 0.9")

        try tmux.send("t")
        try tmux.send("BSpace", "BSpace", "BSpace")
        try tmux.type("1.0-beta")
        try tmux.send("Enter")
        try tmux.waitFor("is not a version")
        try tmux.send("Escape", "t", "BSpace", "BSpace", "BSpace")
        try tmux.type("1.1")
        try tmux.send("Enter")
        try tmux.waitFor("Notes 0.9 → 1.1", "● pending             3 version 1.1")

        try tmux.send("d")
        try tmux.waitFor("Dry run", "Would run, in this order", "would-run version 0.10")
        try tmux.send("Escape")

        try tmux.send("r")
        try tmux.waitFor("Ran 7 steps:", "succeeded version 1.1", "encrypted notes")
        try tmux.send("Escape")
        try tmux.waitFor("✓ applied               version 1.1")

        try tmux.send("x")
        try tmux.waitFor("Are you sure?")
        try tmux.send("y")
        try tmux.waitFor("Reset: the sandbox is back to a device at 0.9", "● pending             1 version 0.10")

        try tmux.send("?")
        try tmux.waitFor("Keys", "What's New walkthrough for this upgrade")
        try tmux.send("Escape")

        try tmux.resize(width: 130, height: 30)
        try tmux.waitFor("│ version 0.9 · Add GUIDs to notes")
        try tmux.resize(width: 40, height: 10)
        try tmux.waitFor("terminal too small (need 50×14)")
        try tmux.resize(width: 80, height: 24)
        try tmux.waitFor("── details")

        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
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
        try tmux.waitFor("Ledger 2.0 → 3.0", "● pending             1 version 2.5   Split accounts")
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
