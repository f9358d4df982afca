import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A run of commands in the terminal UI: live progress, and Ctrl-C or Esc to stop it.
@Suite("End to end in tmux: live runs", .serialized)
struct TUILiveRunTests {
    @Test("a command that never ends shows live and is cancelled", arguments: ["C-c", "Escape"])
    func cancel(key: String) throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("m.json")
        try manifest.write(#"{ "appVersion": "1.0", "migrations": [ { "version": "0.1", "title": "hang", "run": "echo working; echo $$ > pid; sleep 1000" }, { "version": "0.2", "title": "after", "run": "touch after" } ] }"#)
        let tmux = try Tmux(["--manifest", manifest.path, "--store", folder.appendingPathComponent("s.json").path], width: 100, height: 30)
        try tmux.waitFor("version 0.1")
        try tmux.send("r")
        try tmux.waitFor("Are you sure?")
        try tmux.send("y")
        try tmux.waitFor("0.1 `echo working;", "│ working", "Ctrl-C or Esc cancels")
        // The command prints before it writes its pid: the screen does not say the pid is there.
        let shell = try pidWritten(to: folder.appendingPathComponent("pid"))
        try tmux.send(key)
        let screen = try tmux.waitFor("⊘ cancelled version 0.1 \"hang\"", "Run cancelled at version 0.1 \"hang\"; 2 migrations wait for the next run")
        #expect(screen.contains("▶ ● pending     1 version 0.1"), "the cancelled step is not recorded: it stays pending\n\(screen)")
        #expect(!isAlive(shell))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("after").path))
        try tmux.send("Escape")
        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
    }

    @Test func aRunOfMoreStepsThanTheTableShowsKeepsTheRunningRowInView() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("m.json")
        let steps = (1...200).map { step in
            #"{ "version": "1.\#(step)", "title": "Step \#(step)", "run": "\#(step == 150 ? "echo $$ > pid; sleep 1000" : "true")" }"#
        }
        try manifest.write(#"{ "appVersion": "2.0", "migrations": [ \#(steps.joined(separator: ", ")) ] }"#)
        let tmux = try Tmux(["--manifest", manifest.path, "--store", folder.appendingPathComponent("s.json").path], width: 80, height: 24)
        try tmux.waitFor("version 1.1 ")
        try tmux.send("r")
        try tmux.waitFor("Are you sure?")
        try tmux.send("y")
        let shell = try pidWritten(to: folder.appendingPathComponent("pid"))
        let running = try tmux.waitFor("version 1.150 ").split(separator: "\n").first { $0.contains("version 1.150 ") }
        #expect(running?.hasPrefix("▶ ▸ running…") == true, "\(running ?? "")")
        try tmux.send("Escape")
        try tmux.waitFor("Ran 150 steps:")
        #expect(processIsGone(shell))
        try tmux.send("Escape")
        let after = try tmux.waitFor("Run cancelled at version 1.150 \"Step 150\"; the 149 steps before it stay", "150 of 200")
            .split(separator: "\n").first { $0.contains("version 1.150 ") }
        #expect(after?.hasPrefix("▶ ● pending") == true, "the cancelled step stays selected, unrecorded: \(after ?? "")")
        try tmux.send("k")
        try tmux.waitFor("149 of 200")
        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
    }
}
