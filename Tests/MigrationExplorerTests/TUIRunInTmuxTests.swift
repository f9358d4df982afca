import Foundation
import MigrationTestSupport
import Testing
@testable import MigrationExplorer
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The whole terminal UI works while a run goes on, in a real terminal at 80×24 and at 60×20.
@Suite("End to end in tmux: the UI during a run", .serialized)
struct TUIRunInTmuxTests {
    /// A manifest whose 0.2 runs until it is stopped (its shell's pid in `pid`), and its store.
    func files() throws -> (folder: URL, manifest: URL, store: URL) {
        let folder = try makeTemporaryFolder()
        try folder.appendingPathComponent("long.sh").write("echo $$ > pid\necho working\nexec sleep 1000\n")
        let manifest = folder.appendingPathComponent("m.json")
        try manifest.write(#"""
            { "app": "Ledger", "appVersion": "1.0", "migrations": [
              { "version": "0.1", "title": "Quick", "whatsNew": ["Totals add up."], "run": "true" },
              { "version": "0.2", "title": "Long", "run": "sh long.sh" },
              { "version": "0.3", "title": "After", "run": "touch after" } ] }
            """#)
        return (folder, manifest, folder.appendingPathComponent("s.json"))
    }

    /// Starts the run and waits for 0.2's command; returns its shell's pid.
    func startRun(_ tmux: Tmux, in folder: URL) async throws -> pid_t {
        try await tmux.waitFor("version 0.1")
        try await tmux.send("r")
        try await tmux.waitFor("Are you sure?")
        try await tmux.send("y")
        let shell = try await pidWritten(to: folder.appendingPathComponent("pid"))
        try await tmux.waitFor("0.2 `sh long.sh` │", "│ working", "Ctrl-C or Esc cancels the run")
        return shell
    }

    /// The elapsed time on the status line (`1.25 s`), when it shows one.
    func elapsed(_ screen: String) -> String? {
        guard let range = screen.range(of: #"│ [0-9.]+ (ms|s) │"#, options: .regularExpression) else { return nil }
        return String(screen[range])
    }

    @Test("during a run: ticks, moves, help, What's New and a resize, then Ctrl-C", arguments: [(80, 24, 60, 20), (60, 20, 80, 24)])
    func theWholeUIWorksDuringARun(width: Int, height: Int, newWidth: Int, newHeight: Int) async throws {
        let (folder, manifest, store) = try files()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tmux = try await Tmux(["--manifest", manifest.path, "--store", store.path], width: width, height: height)
        let shell = try await startRun(tmux, in: folder)
        // The running step's elapsed time ticks with no key pressed.
        let first = try #require(elapsed(try await tmux.capture()))
        #expect(try await tmux.screen { elapsed($0).map { $0 != first } == true } != nil, "the elapsed time stays at \(first)")
        // The selection moves.
        try await tmux.send("k")
        try await tmux.waitFor("▶ ✓ succeeded")
        // Help opens and Esc closes it; the run goes on.
        try await tmux.send("?")
        try await tmux.waitFor("─ Keys ", "Ctrl-C cancels the run")
        try await tmux.send("Escape")
        #expect(try await tmux.screen { !$0.contains("─ Keys ") } != nil)
        // What's New shows the step done.
        try await tmux.send("w")
        try await tmux.waitFor("Totals add up.")
        try await tmux.send("Escape")
        // A resize redraws at once, at the new size.
        try await tmux.resize(width: newWidth, height: newHeight)
        let resized = try await tmux.waitFor("Ctrl-C or Esc cancels the run", "running…")
        let rows = resized.components(separatedBy: "\n").filter { !$0.isEmpty }
        #expect(rows.count <= newHeight && rows.allSatisfy { $0.displayWidth <= newWidth }, "\(resized)")
        #expect(isAlive(shell), "the step still runs")
        // Ctrl-C ends the step's group; the step before it stays recorded.
        try await tmux.send("C-c")
        try await tmux.waitFor("Run cancelled at version 0.2 \"Long\"")
        #expect(await processIsGone(shell))
        let recorded = try store.read()
        #expect(recorded.contains(#""lastMigratedVersion":"0.1""#), "\(recorded)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("after").path))
        try await tmux.send("Escape")
        try await tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
    }

    @Test func quittingDuringARunCancelsItWaitsAndExitsNormally() async throws {
        let (folder, manifest, store) = try files()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tmux = try await Tmux(["--manifest", manifest.path, "--store", store.path], width: 60, height: 20, then: "stty -a")
        let shell = try await startRun(tmux, in: folder)
        try await tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
        #expect(await processIsGone(shell))
        let stty = try await tmux.waitFor("speed", "extproc").replacingOccurrences(of: "\n", with: " ")
        #expect(stty.contains(" icanon ") && stty.contains(" echo "), "the terminal is given back: \(stty)")
        #expect(try store.read().contains(#""lastMigratedVersion":"0.1""#))
        #expect(try await tmux.capture().contains("Run cancelled at version 0.2"), "where the run stopped is said once the terminal is back")
    }
}
