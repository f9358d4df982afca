import Foundation
import MigrationTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A run killed with SIGKILL inside a migration's command, three times, through the built
/// binary, on every store: the next run holds the migration back (its track waits, the other
/// goes on) and says so; `--retry-interrupted` runs it and its command is told 3; a new build
/// tries it again from zero.
@Suite("Interrupted runs through the binary", .serialized)
struct InterruptedRunCommandTests {
    static var kinds: [OrphanedStepTests.StoreKind] { OrphanedStepTests.kinds }

    /// 0.9 logs what it is told, says on the FIFO `ready` that it started and, unless `ok`
    /// exists, waits for the test to kill it; 1.0 and build 120 log that they ran.
    static func manifest(in folder: URL) throws -> URL {
        let command = "echo tries=$MIGRATION_INTERRUPTED_ATTEMPTS >> log; echo $$ > group; "
            + "[ -p ready ] && echo started > ready; [ -f ok ] || exec sleep 3600"
        let url = folder.appendingPathComponent("m.json")
        try url.write("""
            { "appVersion": "1.0", "appBuild": "120", "migrations": [
              { "version": "0.9", "title": "Import the archive", "run": "\(command)" },
              { "version": "1.0", "title": "After it", "run": "echo ran 1.0 >> log" },
              { "build": "120", "title": "Build step", "run": "echo ran b120 >> log" } ] }
            """)
        return url
    }

    /// Kills the run, and the command it left, while the command runs: `times` times.
    static func kill(_ arguments: [String], in folder: URL, times: Int) async throws {
        let ready = folder.appendingPathComponent("ready")
        for _ in 1...times {
            #expect(mkfifo(ready.path, 0o600) == 0)
            let runner = try await Executable.start(arguments, in: folder)
            #expect(try awaitLine(onFIFO: ready, within: 120) == "started", "the command never started")
            try FileManager.default.removeItem(at: ready)
            Glibc.kill(runner.pid, SIGKILL)
            _ = await runner.finish()
            let group = try #require(pid_t(folder.appendingPathComponent("group").read().trimmingCharacters(in: .whitespacesAndNewlines)))
            Glibc.kill(-group, SIGKILL)
        }
    }

    @Test(arguments: kinds)
    func threeKillsHoldTheMigrationBackUntilARetryThatTellsItThree(_ kind: OrphanedStepTests.StoreKind) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = ["run", "--manifest", try Self.manifest(in: folder).path] + (try kind.arguments(folder))
        try await Self.kill(arguments, in: folder, times: 3)
        let log = folder.appendingPathComponent("log")
        #expect(log.textIfAny == "tries=0\ntries=1\ntries=2\n")

        let held = try await Executable.run(arguments + ["--json"], in: folder)
        #expect(held.status == 1, "\(held.stderr)")
        let ran = try #require(try held.json()["ran"] as? [[String: Any]])
        #expect(ran.map { $0["result"] as? String } == ["held-back", "succeeded"])
        #expect(ran.first?["error"] as? String == "interrupted 3 times at build 120, held back")
        #expect((ran.first?["interruptedAttempts"] as? [[String: Any]])?.compactMap { $0["appBuild"] as? String } == ["120", "120", "120"])
        #expect(ran.last?["build"] as? String == "120")
        #expect(held.stderr.contains(#"held back: version 0.9 "Import the archive": interrupted 3 times at build 120, held back; run --retry-interrupted to try again (version 1.0 waits behind it)"#),
                "\(held.stderr)")
        #expect(log.textIfAny.hasSuffix("tries=2\nran b120\n"), "nothing of the version track ran: \(log.textIfAny)")

        let planArguments = ["plan"] + arguments.dropFirst() + ["--json"]
        let plan = try #require(try await Executable.run(Array(planArguments), in: folder).json()["migrations"] as? [[String: Any]])
        #expect(plan.first?["heldBackByInterruptions"] as? Int == 3)
        #expect((plan.first?["interruptedAttempts"] as? [Any])?.count == 3)
        let text = try await Executable.run(Array(planArguments.dropLast()), in: folder).stdout
        #expect(text.contains("pending: held back, 3 interruptions at build 120"), "\(text)")
        #expect(text.contains("interrupted 3 times at build 120, held back; run --retry-interrupted to try again"), "\(text)")

        try folder.appendingPathComponent("ok").write("")
        let retried = try await Executable.run(arguments + ["--retry-interrupted"], in: folder)
        #expect(retried.status == 0, "\(retried.stderr)")
        #expect(log.textIfAny.hasSuffix("ran b120\ntries=3\nran 1.0\n"), "\(log.textIfAny)")
        let after = try await Executable.run(Array(planArguments.dropLast()), in: folder).stdout
        #expect(after.contains("version 0.9 \"Import the archive\": 3 interrupted attempts"), "the history keeps them: \(after)")
    }

    @Test func aNewBuildTriesTheHeldBackMigrationAgainFromZero() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = ["run", "--manifest", try Self.manifest(in: folder).path, "--store", folder.appendingPathComponent("s.json").path]
        try await Self.kill(arguments, in: folder, times: 3)
        try folder.appendingPathComponent("ok").write("")
        let newBuild = try await Executable.run(arguments + ["--to-build", "121"], in: folder)
        #expect(newBuild.status == 0, "\(newBuild.stderr)")
        #expect(folder.appendingPathComponent("log").textIfAny.hasSuffix("tries=2\ntries=0\nran 1.0\nran b120\n"))
    }
}
