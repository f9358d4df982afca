import Foundation
import MigrationTestSupport
import MigrationCore
import Testing
@testable import MigrationExplorer

/// The commands run as a user would run them: the built binary as a subprocess.
@Suite("Command line")
struct CommandLineTests {
    /// A manifest whose migrations append their version to ran.txt; `failing` exits 3.
    func manifest(in folder: URL, failing: String? = nil, extra: String = "") throws -> URL {
        func run(_ version: String) -> String {
            version == failing ? "echo about to fail; exit 3" : "echo \\\"$MIGRATION_VERSION from=$MIGRATION_FROM to=$MIGRATION_TO\\\" >> ran.txt; echo wrote $MIGRATION_VERSION"
        }
        let url = folder.appendingPathComponent("manifest.json")
        try url.write("""
        { "app": "Notes", "appVersion": "1.0", "appBuild": "120",
          "migrations": [
            { "version": "0.9", "title": "Add GUIDs", "whatsNew": ["Sync"], "run": "\(run("0.9"))" },
            { "version": "0.10", "title": "Dates", "run": "\(run("0.10"))" },
            { "version": "1.0", "title": "Tags", "run": "\(run("1.0"))" },
            { "version": "1.1", "title": "Later", "run": "\(run("1.1"))" },
            { "build": "118", "title": "Index", "notes": "rebuild" }\(extra)
          ],
          "onUpdate": [ { "title": "Stats", "run": "echo hook >> hooks.txt" } ]
        }
        """)
        return url
    }

    @Test func planJSONOnTheDemoHasEveryFieldScriptsRelyOn() async throws {
        let result = try await Executable.run(["plan", "--json"])
        #expect(result.status == 0)
        let json = try result.json()
        #expect(json["app"] as? String == "Notes")
        #expect(json["from"] as? String == "0.8")
        #expect(json["to"] as? String == "1.0")
        let migrations = try #require(json["migrations"] as? [[String: Any]])
        let byVersion = Dictionary(migrations.compactMap { m in (m["version"] as? String).map { ($0, m) } }, uniquingKeysWith: { a, _ in a })
        #expect(byVersion["0.9"]?["status"] as? String == "pending")
        #expect(byVersion["0.9"]?["reason"] is NSNull)
        #expect(byVersion["1.1"]?["status"] as? String == "skipped")
        #expect(byVersion["1.1"]?["reason"] as? String == "above-app-version")
        #expect(byVersion["0.5"]?["status"] as? String == "applied")
        let pendingOrder = migrations.filter { $0["status"] as? String == "pending" }.map { ($0["version"] ?? $0["build"]) as? String }
        #expect(pendingOrder == ["0.9", "0.10", "1.0", "95", "100"])
        #expect(migrations.contains { $0["build"] as? String == "95" && $0["version"] == nil })
        let hooks = try #require(json["hooks"] as? [[String: Any]])
        #expect(hooks.first?["kind"] as? String == "onUpdate")
        #expect(hooks.first?["fires"] as? Bool == true)
        // 0.7 is declared after 1.0, and shipped in 1.0 after this device's 0.8: out of order.
        #expect((json["problems"] as? [Any])?.count == 2)
    }

    @Test func planTextIsAnAlignedTableWithoutEscapesWhenPiped() async throws {
        let result = try await Executable.run(["plan", "--from", "0.9", "--to", "1.1"], environment: ["LANG": "C.UTF-8"])
        #expect(result.status == 0)
        #expect(!result.stdout.contains("\u{1B}["))
        #expect(result.stdout.contains("Notes 0.9 → 1.1"))
        #expect(result.stdout.contains("●  pending                     3      version  1.1      Encrypt notes at rest"))
        let ascii = try await Executable.run(["plan"], environment: ["LANG": "C", "LC_ALL": "C"])
        #expect(ascii.stdout.contains("*  pending"))
        #expect(!ascii.stdout.contains("●"))
    }

    @Test func runExecutesShellCommandsWithTheirEnvironmentAndCapturesOutput() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try manifest(in: folder)
        let store = folder.appendingPathComponent("state.json").path
        let result = try await Executable.run(["run", "--manifest", manifest.path, "--store", store, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try folder.appendingPathComponent("ran.txt").read() == "0.9 from= to=1.0\n0.10 from=0.9 to=1.0\n1.0 from=0.10 to=1.0\n")
        #expect(try folder.appendingPathComponent("hooks.txt").read() == "hook\n")
        let json = try result.json()
        let ran = try #require(json["ran"] as? [[String: Any]])
        try #require(ran.map { ($0["version"] ?? $0["build"]) as? String } == ["0.9", "0.10", "1.0", "118"])
        #expect(ran[0]["result"] as? String == "succeeded")
        #expect(ran[0]["output"] as? String == "wrote 0.9")
        #expect(ran[0]["error"] is NSNull)
        #expect((ran[0]["durationMs"] as? Double).map { $0 >= 0 } == true)
        let state = try #require(json["state"] as? [String: Any])
        #expect(state["lastMigratedVersion"] as? String == "1.0")
        #expect(state["lastMigratedBuild"] as? String == "118")
        #expect(state["lastAppVersion"] as? String == "1.0")
        #expect(state["lastAppBuild"] as? String == "120")
        let again = try await Executable.run(["run", "--manifest", manifest.path, "--store", store, "--json"])
        #expect((try again.json()["ran"] as? [Any])?.isEmpty == true)
    }

    @Test func aFailingCommandStopsTheRunKeepsEarlierRecordsAndASecondRunResumes() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("state.json").path
        let failing = try manifest(in: folder, failing: "0.10")
        let first = try await Executable.run(["run", "--manifest", failing.path, "--store", store, "--json"])
        #expect(first.status == 1)
        let ran = try #require(try first.json()["ran"] as? [[String: Any]])
        try #require(ran.map { $0["result"] as? String } == ["succeeded", "failed"])
        #expect(ran[1]["output"] as? String == "about to fail")
        #expect((ran[1]["error"] as? String)?.contains("exited with status 3") == true)
        #expect(try folder.appendingPathComponent("ran.txt").read() == "0.9 from= to=1.0\n")
        let plan = try await Executable.run(["plan", "--manifest", failing.path, "--store", store, "--json"]).json()
        let statuses = (plan["migrations"] as? [[String: Any]])?.map { $0["status"] as? String }
        #expect(statuses == ["applied", "failed", "pending", "skipped", "pending"])

        let fixed = try manifest(in: folder)
        let second = try await Executable.run(["run", "--manifest", fixed.path, "--store", store])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(try folder.appendingPathComponent("ran.txt").read() == "0.9 from= to=1.0\n0.10 from=0.9 to=1.0\n1.0 from=0.10 to=1.0\n")
    }

    @Test func aDryRunRunsNothingWritesNothingAndListsWhatARunWould() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try manifest(in: folder)
        let store = folder.appendingPathComponent("state.json")
        let result = try await Executable.run(["run", "--dry-run", "--manifest", manifest.path, "--store", store.path, "--json"])
        #expect(result.status == 0)
        #expect(!FileManager.default.fileExists(atPath: store.path))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("ran.txt").path))
        let ran = try #require(try result.json()["ran"] as? [[String: Any]])
        #expect(ran.map { $0["result"] as? String } == ["would-run", "would-run", "would-run", "would-run"])
        let real = try await Executable.run(["run", "--manifest", manifest.path, "--store", store.path, "--json"])
        #expect((try real.json()["ran"] as? [[String: Any]])?.map { $0["title"] as? String } == ran.map { $0["title"] as? String })
    }

    @Test func resetForgetsEveryRecord() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try manifest(in: folder)
        let store = folder.appendingPathComponent("state.json").path
        _ = try await Executable.run(["run", "--manifest", manifest.path, "--store", store])
        let reset = try await Executable.run(["reset", "--store", store])
        #expect(reset.status == 0)
        let plan = try await Executable.run(["plan", "--manifest", manifest.path, "--store", store, "--json"]).json()
        #expect(plan["from"] is NSNull)
        #expect((plan["migrations"] as? [[String: Any]])?.filter { $0["status"] as? String == "pending" }.count == 4)
    }

    @Test func fromOverridesTheStoreForASimulationThatWritesNothing() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try manifest(in: folder)
        let store = folder.appendingPathComponent("state.json")
        _ = try await Executable.run(["run", "--manifest", manifest.path, "--store", store.path])
        let recorded = try store.read()
        let simulated = try await Executable.run(["run", "--manifest", manifest.path, "--store", store.path, "--from", "0.9", "--yes", "--json"])
        #expect(simulated.status == 0)
        #expect((try simulated.json()["ran"] as? [[String: Any]])?.compactMap { $0["version"] as? String } == ["0.10", "1.0"])
        #expect(try store.read() == recorded)
        let text = try await Executable.run(["plan", "--manifest", manifest.path, "--store", store.path, "--from", "0.9"])
        #expect(text.stdout.contains("store: sandbox over \(store.path)"))
    }

    @Test func twoProcessesRacingOnOneStoreNeverRunAMigrationTwice() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("manifest.json")
        let migrations = (1...6).map { "{ \"version\": \"0.\($0)\", \"title\": \"m\($0)\", \"run\": \"echo $MIGRATION_VERSION >> ran.txt; sleep 0.05\" }" }
        try url.write("{ \"appVersion\": \"1.0\", \"migrations\": [\(migrations.joined(separator: ","))] }")
        let store = folder.appendingPathComponent("state.json").path
        let results = try await Executable.race(3, ["run", "--manifest", url.path, "--store", store])
        #expect(results.allSatisfy { $0.status == 0 })
        #expect(try folder.appendingPathComponent("ran.txt").read() == (1...6).map { "0.\($0)\n" }.joined())
    }

    @Test func aCorruptStoreIsExit65AndLeftUntouched() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("state.json")
        try store.write("{ broken")
        let result = try await Executable.run(["run", "--store", store.path])
        #expect(result.status == 65)
        #expect(result.stderr.contains("state.json: is not a migration record"))
        #expect(try store.read() == "{ broken")
    }

    @Test func everyManifestProblemIsListedInOnePassWithItsFieldPath() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("bad.json")
        try url.write("""
        { "appVersion": "1.0", "colour": "red",
          "migrations": [
            { "version": "0.9", "title": "ok" },
            { "version": "1.0-beta", "title": "bad version" },
            { "version": "0.9.0", "title": "duplicate" },
            { "version": "0.5", "build": "7", "title": "both" },
            { "title": "neither" },
            { "version": "0.6" },
            { "version": 0.7, "title": "number" },
            { "version": "0.8", "title": "typo", "notse": "x" }
          ],
          "onUpdate": [ { "run": "true" } ]
        }
        """)
        let result = try await Executable.run(["plan", "--manifest", url.path])
        #expect(result.status == 65)
        #expect(result.stdout.isEmpty)
        let expected = [
            "colour: is not a known field",
            "migrations[1].version: \"1.0-beta\" is not a version",
            "migrations[2].version: \"0.9.0\" duplicates migrations[0].version",
            "migrations[3]: has both \"version\" and \"build\"",
            "migrations[4]: has neither \"version\" nor \"build\"",
            "migrations[5].title: is missing",
            "migrations[6].version: must be a string such as \"1.0\", not 0.7",
            "migrations[7].notse: is not a known field",
            "onUpdate[0].title: is missing",
            "bad.json: 9 problems",
        ]
        for line in expected { #expect(result.stderr.contains(line), "missing: \(line)\n\(result.stderr)") }
    }

    @Test("unusable input exits 65", arguments: [
        ["plan", "--from", "v2"], ["plan", "--to", "1..2"], ["plan", "--manifest", "/nonexistent/manifest.json"], ["plan", "--fail", "x"],
    ])
    func unusableInput(arguments: [String]) async throws {
        let result = try await Executable.run(arguments)
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("migration-explorer: "))
    }

    @Test("bad usage exits 64", arguments: [
        ["plan", "--nope"], ["frobnicate"], ["reset"], ["plan", "--fresh-install", "sometimes"],
    ])
    func badUsage(arguments: [String]) async throws {
        #expect(try await Executable.run(arguments).status == 64)
    }

    @Test func failIsForTheDemoOnly() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try manifest(in: folder)
        let result = try await Executable.run(["plan", "--manifest", manifest.path, "--fail", "0.9"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--fail applies to the built-in demo only"))
    }

    @Test func theDemoFailurePathExits1() async throws {
        let result = try await Executable.run(["run", "--fail", "0.10"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("failed: the demo was started with --fail 0.10"))
    }

    @Test func theInteractiveExplorerWithoutATerminalExits2AndWritesNothing() async throws {
        let result = try await Executable.run([])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("needs a terminal"))
        #expect(result.stderr.contains("migration-explorer plan"))
    }

    @Test func helpListsEveryCommand() async throws {
        let result = try await Executable.run(["--help"])
        #expect(result.status == 0)
        for command in ["tui", "plan", "run", "reset"] { #expect(result.stdout.contains(command)) }
    }

    @Test("an unusable --timeout or --kill-after (negative, zero, too long) is refused as such, written either way",
          arguments: [["--timeout", "-1"], ["--timeout=-1"], ["--kill-after", "-1"], ["--kill-after=0"], ["--kill-after", "1e300"]])
    func aNegativeTimeoutIsRefusedAsSuch(option: [String]) async throws {
        let result = try await Executable.run(["run"] + option)
        let name = option[0].split(separator: "=")[0]
        #expect(result.status == 64)
        #expect(result.stderr.contains("\(name) must be a positive number of seconds"), "\(result.stderr)")
    }

    @Test func aStoreLinkedIntoAMissingFolderIsRefusedBeforeAnythingRuns() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let link = folder.appendingPathComponent("state.json")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "/nowhere/state.json")
        let result = try await Executable.run(["run", "--store", link.path])
        #expect(result.status == 65, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("the folder /nowhere does not exist; create it first"), "\(result.stderr)")
    }

    @Test("a --timeout too long to keep is refused before anything runs", arguments: ["99999999999999999999", "1e300", "31536001"])
    func aTimeoutTooLongIsRefused(seconds: String) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("m.json")
        try manifest.write(#"{ "appVersion": "1.0", "migrations": [ { "version": "0.9", "title": "t", "run": "echo ran > ran" } ] }"#)
        let result = try await Executable.run(["run", "--manifest", manifest.path, "--yes", "--timeout", seconds])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--timeout must be a positive number of seconds up to a year (31536000)"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("ran").path))
    }

    @Test func controlCharactersInDeclaredTextCannotActOnTheTerminal() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("m.json")
        try manifest.write(#"{ "appVersion": "1.0", "migrations": [ { "version": "1.0", "title": "Clear\u001b[2J\u001b]0;owned\u0007 the\nscreen" } ] }"#)
        for command in [["plan"], ["run", "--dry-run"]] {
            let result = try await Executable.run(command + ["--manifest", manifest.path])
            #expect(result.status == 0)
            #expect(!result.stdout.contains("\u{1B}") && !result.stdout.contains("\u{07}"), "\(command): \(result.stdout)")
            #expect(result.stdout.contains("Clear\u{FFFD}[2J\u{FFFD}]0;owned\u{FFFD} the\u{FFFD}screen"), "\(command): \(result.stdout)")
        }
    }

    @Test func baselineOnAFreshInstallRecordsWithoutRunning() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try manifest(in: folder)
        let store = folder.appendingPathComponent("state.json").path
        let result = try await Executable.run(["run", "--manifest", manifest.path, "--store", store, "--fresh-install", "baseline", "--json"])
        #expect(result.status == 0)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("ran.txt").path))
        #expect((try result.json()["state"] as? [String: Any])?["lastMigratedVersion"] as? String == "1.0")
    }
}

@Suite("Embedding")
struct EmbeddingTests {
    @Test func anAppsOwnExecutableShowsItsRegistryWithEveryCommand() throws {
        let binary = Executable.url.deletingLastPathComponent().appendingPathComponent("embedded-example")
        let process = SpawnedProcess()
        process.executableURL = binary
        process.arguments = ["plan", "--json", "--from", "2.0"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(json["app"] as? String == "Recipes")
        #expect(json["to"] as? String == "2.1")
        let statuses = (json["migrations"] as? [[String: Any]])?.map { $0["status"] as? String }
        #expect(statuses == ["applied", "pending", "pending"])
    }

    /// Runs the embedding example on `store` and sends it SIGINT once 2.0's log is out.
    func interruptedOnceTheFirstStepLogs(store: String) async throws -> Executable.Result {
        let running = try await Executable.start(["run", "--store", store], binary: Executable.embeddedExample)
        _ = await running.stdout(contains: "converted 42 recipes")
        kill(running.pid, SIGINT)
        return await running.finish()
    }

    @Test func sigintDuringAnAsyncBodyCancelsItAndKeepsTheStepsBeforeIt() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("state.json").path
        // 2.0 is done once its log is out; 2.1 then sleeps four times a quarter second, in which
        // the signal is to land. A try whose signal came once 2.1's body had ended (the test
        // held up that long on a busy machine) shows nothing, and is made again on a new store.
        var interrupted: Executable.Result?
        for _ in 1...5 where interrupted == nil {
            try? FileManager.default.removeItem(atPath: store)
            let attempt = try await interruptedOnceTheFirstStepLogs(store: store)
            if !attempt.stdout.contains("indexed 4 batches") { interrupted = attempt }
        }
        let result = try #require(interrupted, "in 5 tries, SIGINT never stopped 2.1's body before its end")
        #expect(result.status == 130, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains("stopped by signal 2"))
        let state = try FileMigrationStore(url: URL(fileURLWithPath: store)).load()
        #expect(state.lastMigratedVersion == "2.0")
        #expect(state.history.map(\.identifier) == ["2.0"], "the cancelled body is not recorded")
        let resumed = try await Executable.run(["run", "--store", store], binary: Executable.embeddedExample)
        #expect(resumed.status == 0)
        #expect(resumed.stdout.contains("indexed 4 batches") && !resumed.stdout.contains("converted 42 recipes"))
        let progress = resumed.stdout.split(separator: "\n").filter { $0.hasSuffix("%") }.map { $0.split(separator: " ").last ?? "" }
        #expect(progress == ["25%", "50%", "75%", "100%"], "a line for each tenth reached, as the body reports it")
        let printed = try #require(resumed.stdout.range(of: "dropped the old cache\n"))
        let hook = try #require(resumed.stdout.range(of: "What's New shown on the main thread"))
        #expect(printed.lowerBound < hook.lowerBound, "what a body prints comes in the order it happened")
    }

    /// A command that outlives SIGTERM: it notes each one in `term` and goes on; it records
    /// its shell's pid in `pid`. (It waits with `wait`, which a trapped signal interrupts at
    /// once; a shell waiting for a command in the foreground would take the trap only once
    /// that command ended.)
    static let stubborn = "trap 'echo stopping >> term' TERM; echo $$ > pid; while :; do sleep 1000 & wait $!; done"

    /// A grace period no test outlives: the stubborn command ends by the second signal, never by
    /// SIGKILL at the end of its grace (2 s by default, which a busy machine can spend before
    /// the test has seen the first signal arrive).
    static let noKillWhileTheTestRuns = ["--kill-after", "3600"]

    /// Sends SIGINT to `running`, waits until the first one has reached the stubborn command
    /// in `folder` (the run is cancelling), then sends the second.
    func signalTwice(_ running: Executable.Running, stubbornIn folder: URL) async throws {
        kill(running.pid, SIGINT)
        let cancelling = await waitUntil { folder.appendingPathComponent("term").textIfAny.contains("stopping") }
        try #require(cancelling, "the first SIGINT did not reach the running command")
        kill(running.pid, SIGINT)
    }

    @Test func aSecondSignalWhileTheRunningStepIgnoresCancellingExitsAtOnce() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("manifest.json"), store = folder.appendingPathComponent("state.json")
        try manifest.write(#"{ "appVersion": "3.0", "migrations": [ { "version": "2.5", "title": "Quick", "run": "true" }, { "version": "2.6", "title": "Stubborn", "run": "\#(Self.stubborn)" } ] }"#)
        let running = try await Executable.start(["run", "--manifest", manifest.path, "--store", store.path] + Self.noKillWhileTheTestRuns)
        let shell = try await pidWritten(to: folder.appendingPathComponent("pid"))
        try await signalTwice(running, stubbornIn: folder)
        let result = await running.finish()
        #expect(result.status == 130)
        #expect(result.stderr.contains("stopped by a second signal 2 before the running step stopped"), "\(result.stderr)")
        #expect(await processIsGone(shell), "the stubborn command's group is killed")
    }

    @Test func aSecondSignalUnderJSONStillListsTheStepsThatFinished() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("manifest.json"), store = folder.appendingPathComponent("state.json")
        try manifest.write(#"{ "appVersion": "3.0", "migrations": [ { "version": "2.5", "title": "Quick", "run": "echo done" }, { "version": "2.6", "title": "Stubborn", "run": "\#(Self.stubborn)" } ] }"#)
        let running = try await Executable.start(["run", "--manifest", manifest.path, "--store", store.path, "--json"] + Self.noKillWhileTheTestRuns)
        _ = try await pidWritten(to: folder.appendingPathComponent("pid"))
        try await signalTwice(running, stubbornIn: folder)
        let result = await running.finish()
        #expect(result.status == 130)
        let json = try #require(try? result.json(), "\(result.stdout)")
        #expect((json["error"] as? [String: Any])?["kind"] as? String == "cancelled", "\(json)")
        let ran = try #require(json["ran"] as? [[String: Any]], "the steps recorded before the exit: \(json)")
        #expect(ran.map { $0["version"] as? String } == ["2.5"])
        #expect(ran.first?["result"] as? String == "succeeded")
        #expect(ran.first?["output"] as? String == "done")
        #expect((json["hooks"] as? [[String: Any]])?.isEmpty == true)
        #expect(try FileMigrationStore(url: store).load().lastMigratedVersion == "2.5", "what the document lists is what was recorded")
    }

    @Test func anAppVersionThatIsNotOneIsNamedAsTheAppsNotAsAnOption() {
        let app = ExplorerApp(registry: MigrationRegistry(), appVersion: "abc", appBuild: "12-x")
        #expect(throws: ExplorerError.self) { try Explorer(app: app, options: ExplorerOptions()) }
        do { _ = try Explorer(app: app, options: ExplorerOptions()) } catch {
            #expect(error.description.hasPrefix("the app's version: "), "\(error)")
        }
    }

    @Test func anAppsExplorerSpeaksOfItselfInHelpAndErrors() async throws {
        let help = try await Executable.run(["--help"], binary: Executable.embeddedExample)
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE: embedded-example"), "\(help.stdout)")
        #expect(help.stdout.contains("It shows the migrations of Recipes, upgrading to 2.1."))
        #expect(!help.stdout.contains("demo"))
        let failed = try await Executable.run(["plan", "--from", "x.y"], binary: Executable.embeddedExample)
        #expect(failed.status == 65)
        #expect(failed.stderr.hasPrefix("embedded-example: "), "\(failed.stderr)")
    }

    @Test func aSandboxRunOfAnAppsOwnCodeAsksForYesAsACommandsDoes() async throws {
        let refused = try await Executable.run(["run", "--from", "2.0"], binary: Executable.embeddedExample)
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("this run executes the app's migrations against a sandbox: "
            + "the migrations' code runs for real and only the records are simulated; add --yes to run them, or use --dry-run"), "\(refused.stderr)")
        #expect(!refused.stdout.contains("indexed"), "nothing ran")
        #expect(try await Executable.run(["run", "--from", "2.0", "--dry-run"], binary: Executable.embeddedExample).status == 0)
    }

    @Test func aSandboxRunThatRunsNoBodyNeedsNoYes() async throws {
        // A fresh install under the baseline policy records every migration without running it,
        // and no hook fires: nothing of the app's code runs, so there is nothing to confirm.
        let result = try await Executable.run(["run", "--fresh-install", "baseline", "--json"], binary: Executable.embeddedExample)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try result.json()
        #expect((json["ran"] as? [[String: Any]])?.allSatisfy { $0["result"] as? String == "baselined" } == true, "\(json)")
        #expect((json["hooks"] as? [[String: Any]])?.isEmpty == true, "\(json)")
        #expect(!result.stderr.contains("--yes"))
    }

    @Test func anAppsAsyncAndMainActorBodiesRunFromTheRunCommand() async throws {
        let result = try await Executable.run(["run", "--json", "--yes"], binary: Executable.embeddedExample)
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        let json = try result.json()
        let ran = try #require(json["ran"] as? [[String: Any]]) + (try #require(json["hooks"] as? [[String: Any]]))
        try #require(ran.map { $0["title"] as? String } == ["Convert cups to grams", "Index ingredients", "Drop the old cache", "Show What's New"])
        #expect(ran.allSatisfy { $0["result"] as? String == "succeeded" }, "\(ran)")
        #expect(ran[1]["output"] as? String == "indexed 4 batches")
        #expect(ran[3]["output"] as? String == "What's New shown on the main thread: true")
        #expect(result.stderr.contains("dropped the old cache"), "with --json, what a body prints goes to stderr")
    }
}
