import Foundation
import MigrationTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Manifest commands through the built binary: process groups, the inherited lock, timeouts,
/// capped output, and what commands are told.
@Suite("Shell commands")
struct ShellCommandTests {
    /// A command that logs "start V" and "end V" around `sleep`, records its shell's pid in
    /// pid.V, and logs OVERLAP if the previous run of any migration is still alive.
    static func guarded(_ version: String, sleep seconds: String) -> String {
        "for f in pid.*; do [ -f \\\"$f\\\" ] && kill -0 $(cat \\\"$f\\\") 2>/dev/null && echo OVERLAP >> log; done; "
            + "echo $$ > pid.\(version); echo start \(version) >> log; sleep \(seconds); echo end \(version) >> log; rm -f pid.\(version)"
    }

    func manifest(in folder: URL, _ migrations: [(version: String, run: String)], extra: String = "") throws -> URL {
        let url = folder.appendingPathComponent("manifest.json")
        let items = migrations.map { "{ \"version\": \"\($0.version)\", \"title\": \"m\($0.version)\", \"run\": \"\($0.run)\"\(extra) }" }
        try url.write("{ \"appVersion\": \"1.0\", \"migrations\": [\(items.joined(separator: ", "))] }")
        return url
    }

    @Test func sigtermEndsTheCommandsGroupLeavesItUnrecordedAndARacingRunWaitsThenRunsNothingTwice() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try manifest(in: folder, [("0.1", Self.guarded("0.1", sleep: "0.2")), ("0.2", Self.guarded("0.2", sleep: "30"))])
        let store = folder.appendingPathComponent("state.json").path
        let log = folder.appendingPathComponent("log")
        let first = try await Executable.start(["run", "--manifest", manifest.path, "--store", store, "--json"], in: folder)
        #expect(await waitUntil { log.textIfAny.contains("start 0.2") })
        let shell = try #require(pid_t(folder.appendingPathComponent("pid.0.2").read().trimmingCharacters(in: .whitespacesAndNewlines)))
        let second = try await Executable.start(["run", "--manifest", manifest.path, "--store", store, "--timeout", "0.3", "--json"], in: folder)
        first.send(SIGTERM)
        let result = await first.finish()
        #expect(result.status == 128 + SIGTERM)
        #expect(!isAlive(shell), "the killed run's command still runs")
        let json = try result.json()
        #expect((json["error"] as? [String: Any])?["kind"] as? String == "cancelled")
        let ran = try #require(json["ran"] as? [[String: Any]])
        #expect(ran.map { $0["result"] as? String } == ["succeeded", "cancelled"])
        #expect(result.stderr.contains("cancelled"))
        let again = await second.finish()
        #expect(again.status == 1, "\(again.stderr)")
        #expect((try again.json()["ran"] as? [[String: Any]])?.map { $0["version"] as? String } == ["0.2"])
        #expect(!log.textIfAny.contains("OVERLAP"))
        #expect(log.textIfAny.components(separatedBy: "end 0.1").count == 2, "0.1 ran twice:\n\(log.textIfAny)")
    }

    @Test func afterSIGKILLOfTheRunnerARestartWaitsForTheOrphanedCommand() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try manifest(in: folder, [("0.1", Self.guarded("0.1", sleep: "0.3")), ("0.2", Self.guarded("0.2", sleep: "0"))])
        let store = folder.appendingPathComponent("state.json").path
        let log = folder.appendingPathComponent("log")
        for trial in 1...5 {
            try? FileManager.default.removeItem(atPath: store)
            let first = try await Executable.start(["run", "--manifest", manifest.path, "--store", store], in: folder)
            #expect(await waitUntil { log.textIfAny.components(separatedBy: "start 0.1").count > trial })
            kill(first.pid, SIGKILL)
            _ = await first.finish()
            let restart = try await Executable.run(["run", "--manifest", manifest.path, "--store", store], in: folder)
            #expect(restart.status == 0, "\(restart.stderr)")
        }
        #expect(!log.textIfAny.contains("OVERLAP"), "\(log.textIfAny)")
    }

    @Test func randomKillsNeverOverlapLoseTheStoreOrRunACommandThreeTimes() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let versions = ["0.1", "0.2", "0.3", "0.4"]
        let manifest = try manifest(in: folder, versions.map { ($0, Self.guarded($0, sleep: "0.01")) })
        let store = folder.appendingPathComponent("state.json")
        let log = folder.appendingPathComponent("log")
        for _ in 1...20 {
            try? FileManager.default.removeItem(at: store)
            try log.write("")
            let runner = try await Executable.start(["run", "--manifest", manifest.path, "--store", store.path], in: folder)
            // A random moment, slept without holding a thread; the kill goes through the
            // helper, which sends nothing once the run has ended.
            try await Task.sleep(for: .microseconds(Int.random(in: 0...150_000)))
            runner.send(SIGKILL)
            _ = await runner.finish()
            #expect(try await Executable.run(["run", "--manifest", manifest.path, "--store", store.path], in: folder).status == 0)
            let text = log.textIfAny
            #expect(!text.contains("OVERLAP"), "\(text)")
            for version in versions { #expect((2...3).contains(text.components(separatedBy: "end \(version)").count), "\(text)") }
            #expect(try store.read().contains(#""lastMigratedVersion":"0.4""#))
        }
    }

    @Test func aBackgroundChildDoesNotHoldTheRunAndIsEndedWithTheGroup() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The child outlives any deadline, and keeps the command's output open: a run that
        // waited for it, or for the end of that output, would not end.
        let manifest = try manifest(in: folder, [("0.1", "echo start; sleep 1000 & echo $! > child; echo launched")])
        let childFile = folder.appendingPathComponent("child")
        defer { if let child = pid_t(childFile.textIfAny.trimmingCharacters(in: .whitespacesAndNewlines)) { kill(child, SIGKILL) } }
        let arguments = ["run", "--manifest", manifest.path, "--store", folder.appendingPathComponent("s.json").path, "--json"]
        let result = try #require(try await Executable.run(arguments, in: folder, endingWithin: 60), "the run waited for its command's background child")
        #expect(result.status == 0)
        let step = try #require((try result.json()["ran"] as? [[String: Any]])?.first)
        #expect(step["output"] as? String == "start\nlaunched")
        let child = try #require(pid_t(childFile.read().trimmingCharacters(in: .whitespacesAndNewlines)))
        await #expect(waitUntil { !isAlive(child) })
    }

    @Test("a timeout fails the migration and stops the run", arguments: [
        (manifestTimeout: ", \"timeout\": 0.5", option: [String]()), (manifestTimeout: "", option: ["--timeout", "0.5"]),
    ])
    func timeout(manifestTimeout: String, option: [String]) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 0.1 would outlive any deadline: only its timeout can end the run.
        let manifest = try manifest(in: folder, [("0.1", "echo $$ > pid; sleep 1000"), ("0.2", "touch ran-0.2")], extra: manifestTimeout)
        let store = folder.appendingPathComponent("s.json").path
        let arguments = ["run", "--manifest", manifest.path, "--store", store, "--json"] + option
        let result = try #require(try await Executable.run(arguments, in: folder, endingWithin: 60), "the timeout did not stop the run")
        #expect(result.status == 1)
        let ran = try #require(try result.json()["ran"] as? [[String: Any]])
        #expect(ran.map { $0["error"] as? String } == ["timed out after 0.5 s"])
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("ran-0.2").path))
        let shell = try #require(pid_t(folder.appendingPathComponent("pid").read().trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(!isAlive(shell))
    }

    #if os(Linux)
    @Test func a100MBOutputStaysUnder100MBOfMemoryAndKeepsBothEnds() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try manifest(in: folder, [
            ("0.1", "echo first line; head -c 100000000 /dev/zero | tr -c x x | fold -w 100; echo; echo last line"),
            ("0.2", "grep VmHWM /proc/$PPID/status | tr -dc 0-9"),
        ])
        let result = try await Executable.run(["run", "--manifest", manifest.path, "--store", folder.appendingPathComponent("s.json").path, "--json"], in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        let ran = try #require(try result.json()["ran"] as? [[String: Any]])
        let output = try #require(ran.first?["output"] as? String)
        #expect(output.hasPrefix("first line\nxxxx"))
        #expect(output.hasSuffix("xxxx\nlast line"))
        #expect(output.utf8.count < 2 * 64 * 1024 + 100)
        let written = "first line\n".utf8.count + 100_000_000 + 999_999 + "\nlast line\n".utf8.count
        let omitted = written - 2 * 64 * 1024
        #expect(output.contains("\n… \(omitted) bytes left out …\n"))
        try #require(ran.count == 2, "\(ran)")
        let peakKB = try #require(Int(ran[1]["output"] as? String ?? ""))
        #expect(peakKB < 100_000, "peak memory \(peakKB) kB")
    }
    #endif

    @Test func commandsAreToldWhetherTheStoreIsASandboxAndWhereItIs() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try manifest(in: folder, [("0.1", "echo $MIGRATION_SANDBOX $MIGRATION_STORE $MIGRATION_VERSION")])
        let store = folder.appendingPathComponent("s.json").path
        let real = try await Executable.run(["run", "--manifest", manifest.path, "--store", store, "--json"], in: folder)
        #expect((try real.json()["ran"] as? [[String: Any]])?.first?["output"] as? String == "0 \(store) 0.1")
        let sandbox = try await Executable.run(["run", "--manifest", manifest.path, "--store", store, "--from", "0", "--yes", "--json"], in: folder)
        #expect((try sandbox.json()["ran"] as? [[String: Any]])?.first?["output"] as? String == "1 memory 0.1")
    }

    @Test("a sandbox run of real commands needs --yes", arguments: [
        ["--from", "0"], [String](),
    ])
    func sandboxRunsNeedYes(extra: [String]) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try manifest(in: folder, [("0.1", "touch ran")])
        let store = extra.isEmpty ? [] : ["--store", folder.appendingPathComponent("s.json").path]
        let refused = try await Executable.run(["run", "--manifest", manifest.path, "--json"] + store + extra, in: folder)
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("the commands run for real and only the records are simulated"))
        #expect((try refused.json()["error"] as? [String: Any])?["kind"] as? String == "usage")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("ran").path))
        let dryRun = try await Executable.run(["run", "--dry-run", "--manifest", manifest.path] + store + extra, in: folder)
        #expect(dryRun.status == 0)
        let confirmed = try await Executable.run(["run", "--yes", "--manifest", manifest.path] + store + extra, in: folder)
        #expect(confirmed.status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("ran").path))
    }

    @Test("a NUL or control character in run is a manifest error", arguments: ["plan", "run"])
    func controlCharacters(command: String) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try manifest(in: folder, [("0.1", "echo hi\\u0000; echo there > ran"), ("0.2", "echo \\u001b[31m")])
        let result = try await Executable.run([command, "--manifest", manifest.path, "--store", folder.appendingPathComponent("s.json").path], in: folder)
        #expect(result.status == 65)
        #expect(result.stderr.contains("migrations[0].run: contains the control character U+0000"))
        #expect(result.stderr.contains("migrations[1].run: contains the control character U+001B"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("ran").path))
    }

    @Test func textOutputIsStreamedWithTheMigrationInFront() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try manifest(in: folder, [("0.1", "echo one; echo two >&2"), ("0.2", "echo three")])
        let result = try await Executable.run(["run", "--manifest", manifest.path, "--store", folder.appendingPathComponent("s.json").path],
                                        in: folder, environment: ["LANG": "C.UTF-8"])
        #expect(result.stdout.hasPrefix("0.1 │ one\n0.1 │ two\n0.2 │ three\n"), "\(result.stdout)")
    }
}
