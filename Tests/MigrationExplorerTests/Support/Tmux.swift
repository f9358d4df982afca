import Foundation
import MigrationTestSupport

/// A private tmux server running one command in a detached window: keys go in with
/// `send-keys`, the screen comes out with `capture-pane`.
final class Tmux {
    let socket = "migration-explorer-tests-\(UUID().uuidString.prefix(8))"
    let statusFile: URL

    /// Starts `arguments` (the built binary's) in a `width`×`height` window; when it exits,
    /// its status is written to ``statusFile`` and the shell command `then` runs in the same
    /// pane (`stty -a`, to see the terminal it left).
    init(
        _ arguments: [String], width: Int = 80, height: Int = 24, environment: [String: String] = [:], then: String? = nil,
        binary: URL = Executable.url
    ) throws {
        statusFile = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket).status")
        let variables = ["LANG": "C.UTF-8", "TERM": "xterm-256color"].merging(environment) { $1 }
            .map { "\($0.key)=\(Self.quote($0.value))" }.sorted().joined(separator: " ")
        // Only what the test names: the runner's own NO_COLOR or locale must not leak in.
        let command = "env -u NO_COLOR -u LC_ALL -u LC_CTYPE \(variables) \(Self.quote(binary.path)) \(arguments.map(Self.quote).joined(separator: " "));"
            + " echo $? > \(Self.quote(statusFile.path)); \(then.map { $0 + ";" } ?? "") sleep 60"
        // The server outlives this call: it must not inherit a pipe we wait on.
        try tmux(["new-session", "-d", "-x", String(width), "-y", String(height), command], capture: false)
    }

    deinit {
        _ = try? tmux(["kill-server"])
        try? FileManager.default.removeItem(at: statusFile)
    }

    func send(_ keys: String...) throws { try send(keys) }

    /// Sends `keys` (tmux key names) in one go.
    func send(_ keys: [String]) throws { try tmux(["send-keys"] + keys) }

    /// Types text literally.
    func type(_ text: String) throws { try tmux(["send-keys", "-l", text]) }

    func capture(colors: Bool = false) throws -> String {
        try tmux(["capture-pane", "-p"] + (colors ? ["-e"] : []))
    }

    func resize(width: Int, height: Int) throws {
        try tmux(["resize-window", "-x", String(width), "-y", String(height)])
    }

    /// Polls the screen until it contains every one of `texts` (`seconds` at most: a deadline
    /// for a UI that hangs, not a measure of its speed) and returns it.
    @discardableResult
    func waitFor(_ texts: String..., colors: Bool = false, seconds: Double = 30) throws -> String {
        var screen = ""
        let deadline = ContinuousClock.now + .seconds(seconds)
        repeat {
            screen = try capture(colors: colors)
            if texts.allSatisfy(screen.contains) { return screen }
            Thread.sleep(forTimeInterval: 0.05)
        } while ContinuousClock.now < deadline
        throw Timeout(description: "waited \(seconds) s for \(texts) but the screen shows:\n\(screen)")
    }

    /// Sends `signal` to the command (the child of the pane's shell).
    func signalCommand(_ signal: Int32) throws {
        let shell = try tmux(["list-panes", "-F", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        let kill = SpawnedProcess()
        kill.executableURL = URL(fileURLWithPath: "/usr/bin/pkill")
        kill.arguments = ["-\(signal)", "-P", shell]
        try kill.run()
        kill.waitUntilExit()
    }

    /// Waits for the command to exit (30 seconds at most) and returns its status.
    func exitStatus() throws -> Int32 {
        let deadline = ContinuousClock.now + .seconds(30)
        repeat {
            if let text = try? String(contentsOf: statusFile, encoding: .utf8), let status = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                return status
            }
            Thread.sleep(forTimeInterval: 0.05)
        } while ContinuousClock.now < deadline
        throw Timeout(description: "the command did not exit within 30 s; the screen shows:\n\((try? capture()) ?? "")")
    }

    struct Timeout: Error, CustomStringConvertible { let description: String }

    /// Runs tmux and waits for it (the client; a server it starts outlives it, holding none
    /// of our descriptors, with its output sent to a file or thrown away).
    @discardableResult
    private func tmux(_ arguments: [String], capture: Bool = true) throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket)-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: output) }
        let command = (["tmux", "-L", socket] + arguments).map(Self.quote).joined(separator: " ")
            + " > \(Self.quote(capture ? output.path : "/dev/null")) 2>&1 < /dev/null"
        let shell = SpawnedProcess()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", command]
        try shell.run()
        shell.waitUntilExit()
        return capture ? ((try? String(contentsOf: output, encoding: .utf8)) ?? "") : ""
    }

    private static func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
