import Foundation
import MigrationTestSupport
import Subprocess

/// A private tmux server running one command in a detached window: keys go in with
/// `send-keys`, the screen comes out with `capture-pane`. Every call is `async` (tmux runs
/// through swift-subprocess, the screen is polled with `Task.sleep`): a test that drives the
/// binary holds no thread of the concurrency pool.
final class Tmux {
    let socket = "migration-explorer-tests-\(UUID().uuidString.prefix(8))"
    let statusFile: URL

    /// Starts `arguments` (the built binary's) in a `width`×`height` window; when it exits,
    /// its status is written to ``statusFile`` and the shell command `then` runs in the same
    /// pane (`stty -a`, to see the terminal it left); the pane then stays (three times
    /// ``hangDeadline``, so a slow machine's waits end first) until the server is ended.
    init(
        _ arguments: [String], width: Int = 80, height: Int = 24, environment: [String: String] = [:], then: String? = nil,
        binary: URL = Executable.url
    ) async throws {
        statusFile = FileManager.default.temporaryDirectory.appendingPathComponent("\(socket).status")
        let variables = ["LANG": "C.UTF-8", "TERM": "xterm-256color"].merging(environment) { $1 }
            .map { "\($0.key)=\(Self.quote($0.value))" }.sorted().joined(separator: " ")
        // Only what the test names: the runner's own NO_COLOR or locale must not leak in.
        let command = "env -u NO_COLOR -u LC_ALL -u LC_CTYPE \(variables) \(Self.quote(binary.path)) \(arguments.map(Self.quote).joined(separator: " "));"
            + " echo $? > \(Self.quote(statusFile.path)); \(then.map { $0 + ";" } ?? "") sleep \(Int(hangDeadline) * 3)"
        // The server outlives this call: it must not inherit a pipe we wait on.
        try await tmux(["new-session", "-d", "-x", String(width), "-y", String(height), command], capture: false)
    }

    /// Ends the server (a client that returns at once) and what runs in it.
    deinit {
        let kill = SpawnedProcess()
        kill.executableURL = URL(fileURLWithPath: "/bin/sh")
        kill.arguments = ["-c", "tmux -L \(Self.quote(socket)) kill-server > /dev/null 2>&1"]
        if (try? kill.run()) != nil { kill.waitUntilExit() }
        try? FileManager.default.removeItem(at: statusFile)
    }

    func send(_ keys: String...) async throws { try await send(keys) }

    /// Sends `keys` (tmux key names) in one go.
    func send(_ keys: [String]) async throws { try await tmux(["send-keys"] + keys) }

    /// Types text literally.
    func type(_ text: String) async throws { try await tmux(["send-keys", "-l", text]) }

    func capture(colors: Bool = false) async throws -> String {
        try await tmux(["capture-pane", "-p"] + (colors ? ["-e"] : []))
    }

    func resize(width: Int, height: Int) async throws {
        try await tmux(["resize-window", "-x", String(width), "-y", String(height)])
    }

    /// Polls the screen until it contains every one of `texts` (`seconds` at most: a deadline
    /// for a UI that hangs, not a measure of its speed) and returns it.
    @discardableResult
    func waitFor(_ texts: String..., colors: Bool = false, seconds: Double = hangDeadline) async throws -> String {
        var last = ""
        let screen = try await screen(colors: colors, within: seconds) { screen in
            last = screen
            return texts.allSatisfy(screen.contains)
        }
        guard let screen else { throw Timeout(description: "waited \(seconds) s for \(texts) but the screen shows:\n\(last)") }
        return screen
    }

    /// Polls the screen until `shows` says yes to it (`seconds` at most) and returns it;
    /// `nil` when it never did.
    func screen(colors: Bool = false, within seconds: Double = hangDeadline, where shows: (String) -> Bool) async throws -> String? {
        let deadline = ContinuousClock.now + .seconds(seconds)
        repeat {
            let screen = try await capture(colors: colors)
            if shows(screen) { return screen }
            try await Task.sleep(for: .milliseconds(50))
        } while ContinuousClock.now < deadline
        return nil
    }

    /// Sends `signal` to the command (the child of the pane's shell).
    func signalCommand(_ signal: Int32) async throws {
        let shell = try await tmux(["list-panes", "-F", "#{pane_pid}"]).trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try await Subprocess.run(.path("/usr/bin/pkill"), arguments: ["-\(signal)", "-P", shell], output: .discarded)
    }

    /// Waits for the command to exit (``hangDeadline`` at most) and returns its status.
    func exitStatus() async throws -> Int32 {
        var status: Int32?
        _ = await waitUntil {
            status = (try? String(contentsOf: statusFile, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            return status != nil
        }
        if let status { return status }
        throw Timeout(description: "the command did not exit within \(Int(hangDeadline)) s; the screen shows:\n\((try? await capture()) ?? "")")
    }

    struct Timeout: Error, CustomStringConvertible { let description: String }

    /// Runs tmux and awaits it: the client. A server it starts outlives it, so the call that
    /// may start one (`capture: false`) gives it no pipe to hold open; the others read the
    /// client's output.
    @discardableResult
    private func tmux(_ arguments: [String], capture: Bool = true) async throws -> String {
        let words = Arguments(["-L", socket] + arguments)
        guard capture else {
            _ = try await Subprocess.run(.name("tmux"), arguments: words, output: .discarded, error: .discarded)
            return ""
        }
        let result = try await Subprocess.run(.name("tmux"), arguments: words, output: .string(limit: 1 << 24), error: .string(limit: 1 << 16))
        // A client that failed (the session gone, the server unreachable) is said, not read as a blank screen.
        guard result.terminationStatus.isSuccess else {
            throw Failure(description: "tmux \(arguments.joined(separator: " ")) failed: \(result.standardError)")
        }
        return result.standardOutput
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    private static func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
