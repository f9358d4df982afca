import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Goal 4: the shipped `migration-explorer` on a 100,000-migration manifest: `plan --json`,
/// its peak memory, and the terminal UI's first frame in tmux.
enum BinaryBenchmark {
    /// The `migration-explorer` built beside this benchmark: the shipped binary.
    static func shippedBinary() throws -> String {
        let binary = URL(fileURLWithPath: ownPath()).deletingLastPathComponent().appendingPathComponent("migration-explorer").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw BenchError("build migration-explorer first: swift build -c release --product migration-explorer")
        }
        return binary
    }

    static func run(_ table: Table) throws {
        let binary = try shippedBinary()
        let folder = temporaryFolder("manifest")
        defer { try? FileManager.default.removeItem(at: folder) }
        let count = 100_000
        let all = versions(count)
        let manifest = folder.appendingPathComponent("manifest.json")
        let items = all.map { #"{"version": "\#($0)", "title": "Migration \#($0)", "notes": "Notes for \#($0)", "whatsNew": ["New in \#($0)"]}"# }
        try Data(#"{"app": "Bench", "appVersion": "\#(all[count * 3 / 4])", "migrations": [\#(items.joined(separator: ",\n"))]}"#.utf8)
            .write(to: manifest)

        debugStart(table, release: binary)
        print("\nThe shipped binary on a \(count)-migration manifest (best of 3)")
        let plan = (0..<3).map { _ in measured(binary, ["plan", "--manifest", manifest.path, "--json"]) }
        let empty = (0..<3).map { _ in measured("/bin/true", []) }
        let data = try Data(contentsOf: manifest)
        let parse = best(repetitions: 3) { blackHole(try? JSONSerialization.jsonObject(with: data)) }
        let planTime = plan.map(\.seconds).min()!, planMemory = plan.map(\.peakBytes).min()!
        table.add(Row(figure: "`plan --json`, 100,000: \(formatted(planTime))",
                      baseline: "`JSONSerialization` of the same file, in process \(formatted(parse))", ratio: planTime / parse,
                      target: "≤ 500 ms", met: planTime <= 0.5))
        let emptyMemory = max(1, empty.map(\.peakBytes).min()!)
        table.add(Row(figure: String(format: "`plan --json`, 100,000: peak memory %.1f MB", Double(planMemory) / 1e6),
                      baseline: String(format: "`true`: %.1f MB", Double(emptyMemory) / 1e6),
                      ratio: Double(planMemory) / Double(emptyMemory), target: "≤ 150 MB", met: planMemory <= 150_000_000))

        if let tuiMemory = (0..<3).compactMap({ _ in terminalUIPeak(binary, manifest: manifest.path, showing: " of \(count)") }).min() {
            table.add(Row(figure: String(format: "TUI, 100,000: peak memory %.1f MB", Double(tuiMemory) / 1e6),
                          baseline: String(format: "`plan --json` %.1f MB", Double(planMemory) / 1e6),
                          ratio: Double(tuiMemory) / Double(planMemory), target: "≤ 150 MB", met: tuiMemory <= 150_000_000))
        } else {
            print("  (tmux is not installed or the explorer never drew: no terminal UI memory figure)")
        }
        let frame = (0..<3).compactMap { _ in firstFrame(["'\(binary)' --manifest '\(manifest.path)'"], showing: " of \(count)") }.min()
        let shell = (0..<3).compactMap { _ in firstFrame(["printf 'ready%s' ' now'; sleep 5"], showing: "ready now") }.min()
        if let frame, let shell {
            table.add(Row(figure: "TUI first frame in tmux, 100,000: \(formatted(frame))",
                          baseline: "tmux showing a shell's `printf` \(formatted(shell))", ratio: frame / shell,
                          target: "≤ 500 ms", met: frame <= 0.5))
        } else {
            print("  (tmux is not installed or the explorer never drew: no first-frame figure)")
        }
    }

    /// A debug build's start beside the shipped one's: `plan --json` on the demo (best of 5), as
    /// the tests and `swift run` start it, when a debug build sits beside this release one.
    private static func debugStart(_ table: Table, release: String) {
        let debug = URL(fileURLWithPath: release).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("debug/migration-explorer").path
        guard FileManager.default.isExecutableFile(atPath: debug) else {
            print("  (no debug build beside this one: swift build --product migration-explorer, for the debug start figure)")
            return
        }
        let debugTime = (0..<5).map { _ in measured(debug, ["plan", "--json"]).seconds }.min()!
        let releaseTime = (0..<5).map { _ in measured(release, ["plan", "--json"]).seconds }.min()!
        table.add(Row(figure: "debug `plan --json` on the demo: \(formatted(debugTime))", baseline: "release: \(formatted(releaseTime))",
                      ratio: debugTime / releaseTime, target: "≤ 15×", met: debugTime <= 15 * releaseTime))
    }

    /// Runs `path` with `arguments` under `/usr/bin/time` (whose child's peak memory is its
    /// own: a child spawned from this process would count this process's memory until it
    /// execs), output discarded; its wall time and peak resident memory.
    static func measured(_ path: String, _ arguments: [String]) -> (seconds: Double, peakBytes: Int) {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("migration-bench-time-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: report) }
        let (seconds, _) = spawn("/usr/bin/time", ["-f", "%M", "-o", report, path] + arguments)
        let kilobytes = (try? String(contentsOfFile: report, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        return (seconds, (kilobytes ?? 0) * 1024)
    }

    /// Runs `path` with `arguments`, output discarded; its wall time and its `wait4` peak memory.
    @discardableResult
    static func spawn(_ path: String, _ arguments: [String]) -> (seconds: Double, peakBytes: Int) {
        let start = ContinuousClock.now
        guard let pid = startChild(path, arguments) else { return (.infinity, 0) }
        let usage = waitForChild(pid)
        let elapsed = seconds(ContinuousClock.now - start)
        #if canImport(Darwin)
        return (elapsed, Int(usage.ru_maxrss))
        #else
        return (elapsed, Int(usage.ru_maxrss) * 1024)
        #endif
    }

    /// Seconds from starting `command` in a new tmux session until the pane shows `text`.
    private static func firstFrame(_ command: [String], showing text: String) -> Double? {
        let server = "migration-bench-\(ProcessInfo.processInfo.processIdentifier)"
        // Spawned, not run through `Process`: the server `new-session` starts keeps the
        // descriptors `Process` watches for the end of its child.
        defer { spawn("/usr/bin/env", ["tmux", "-L", server, "kill-server"]) }
        let start = ContinuousClock.now
        spawn("/usr/bin/env", ["tmux", "-L", server, "new-session", "-d", "-x", "100", "-y", "30",
                               "env TERM=xterm-256color " + command.joined(separator: " ")])
        while seconds(ContinuousClock.now - start) < 10 {
            if let pane = tmux(server, ["capture-pane", "-p"]), pane.contains(text) { return seconds(ContinuousClock.now - start) }
        }
        return nil
    }

    /// The terminal UI's peak resident memory, in bytes, on `manifest`: opened in tmux under
    /// `/usr/bin/time` until the pane shows `text`, then quit with `q`; `nil` when it never drew
    /// or did not end within 10 s.
    private static func terminalUIPeak(_ binary: String, manifest: String, showing text: String) -> Int? {
        let server = "migration-bench-memory-\(ProcessInfo.processInfo.processIdentifier)"
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("migration-bench-tui-\(UUID().uuidString)").path
        defer {
            spawn("/usr/bin/env", ["tmux", "-L", server, "kill-server"])
            try? FileManager.default.removeItem(atPath: report)
        }
        spawn("/usr/bin/env", ["tmux", "-L", server, "new-session", "-d", "-x", "100", "-y", "30",
                               "env TERM=xterm-256color /usr/bin/time -f %M -o '\(report)' '\(binary)' --manifest '\(manifest)'; sleep 5"])
        let start = ContinuousClock.now
        var drawn = false
        while !drawn, seconds(ContinuousClock.now - start) < 10 {
            drawn = tmux(server, ["capture-pane", "-p"])?.contains(text) == true
        }
        guard drawn else { return nil }
        spawn("/usr/bin/env", ["tmux", "-L", server, "send-keys", "q"])
        while seconds(ContinuousClock.now - start) < 20 {
            if let text = try? String(contentsOfFile: report, encoding: .utf8), let kilobytes = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                return kilobytes * 1024
            }
            usleep(10_000)  // the explorer ends; not a measure of anything
        }
        return nil
    }

    /// What `tmux -L server arguments…` prints, `nil` when it fails.
    static func tmux(_ server: String, _ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["tmux", "-L", server] + arguments
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("migration-bench-tmux-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        guard FileManager.default.createFile(atPath: outputPath, contents: nil),
              let output = FileHandle(forWritingAtPath: outputPath) else { return nil }
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        process.waitUntilExit()
        try? output.close()
        guard process.terminationStatus == 0, let data = FileManager.default.contents(atPath: outputPath) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
