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
    func cancel(key: String) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("m.json")
        try manifest.write(#"{ "appVersion": "1.0", "migrations": [ { "version": "0.1", "title": "hang", "run": "echo working; echo $$ > pid; sleep 1000" }, { "version": "0.2", "title": "after", "run": "touch after" } ] }"#)
        let tmux = try await Tmux(["--manifest", manifest.path, "--store", folder.appendingPathComponent("s.json").path], width: 100, height: 30)
        try await tmux.waitFor("version 0.1")
        try await tmux.send("r")
        try await tmux.waitFor("Are you sure?")
        try await tmux.send("y")
        try await tmux.waitFor("0.1 `echo working;", "│ working", "Ctrl-C or Esc cancels")
        // The command prints before it writes its pid: the screen does not say the pid is there.
        let shell = try await pidWritten(to: folder.appendingPathComponent("pid"))
        try await tmux.send(key)
        let screen = try await tmux.waitFor("⊘ cancelled version 0.1 \"hang\"", "Run cancelled at version 0.1 \"hang\"; 2 migrations wait for the next run")
        #expect(screen.contains("▶ ● pending     1 version 0.1"), "the cancelled step is not recorded: it stays pending\n\(screen)")
        #expect(!isAlive(shell))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("after").path))
        try await tmux.send("Escape")
        try await tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
    }

    @Test func aRunOfMoreStepsThanTheTableShowsKeepsTheRunningRowInView() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("m.json")
        let steps = (1...200).map { step in
            #"{ "version": "1.\#(step)", "title": "Step \#(step)", "run": "\#(step == 150 ? "echo $$ > pid; sleep 1000" : "true")" }"#
        }
        try manifest.write(#"{ "appVersion": "2.0", "migrations": [ \#(steps.joined(separator: ", ")) ] }"#)
        let tmux = try await Tmux(["--manifest", manifest.path, "--store", folder.appendingPathComponent("s.json").path], width: 80, height: 24)
        try await tmux.waitFor("version 1.1 ")
        try await tmux.send("r")
        try await tmux.waitFor("Are you sure?")
        try await tmux.send("y")
        let shell = try await pidWritten(to: folder.appendingPathComponent("pid"))
        let running = try await tmux.waitFor("version 1.150 ").split(separator: "\n").first { $0.contains("version 1.150 ") }
        #expect(running?.hasPrefix("▶ ▸ running…") == true, "\(running ?? "")")
        try await tmux.send("Escape")
        try await tmux.waitFor("Ran 150 steps:")
        #expect(await processIsGone(shell))
        try await tmux.send("Escape")
        let after = try await tmux.waitFor("Run cancelled at version 1.150 \"Step 150\"; the 149 steps before it stay", "150 of 200")
            .split(separator: "\n").first { $0.contains("version 1.150 ") }
        #expect(after?.hasPrefix("▶ ● pending") == true, "the cancelled step stays selected, unrecorded: \(after ?? "")")
        try await tmux.send("k")
        try await tmux.waitFor("149 of 200")
        try await tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
    }
}
