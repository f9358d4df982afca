import Foundation
import Testing

/// `plan` and `run` say what happened and what will, through the built binary: nothing is
/// called applied that did not run, a mark read leniently is shown, and a command that is not
/// one is refused before anything runs.
@Suite("Command line: an honest plan")
struct HonestPlanCommandTests {
    /// App 1.2; 1.0.5 first shipped in 1.2. No releases. Each command appends its version to ran.txt.
    func manifest(in folder: URL, extra: String = "") throws -> String {
        let url = folder.appendingPathComponent("manifest.json")
        try url.write("""
        { "app": "Notes", "appVersion": "1.2",
          "migrations": [
            { "version": "0.9", "title": "Nine", "run": "echo 0.9 >> ran.txt" },
            { "version": "1.1", "title": "Eleven", "run": "echo 1.1 >> ran.txt" },
            { "version": "1.0.5", "title": "Late fix", "since": "1.2", "run": "echo 1.0.5 >> ran.txt" }\(extra)
          ] }
        """)
        return url.path
    }

    /// The status and reason of each migration in `plan --json`, by version, and its problems.
    func plan(_ arguments: [String]) async throws -> (statuses: [String: String], problems: [[String: Any]]) {
        let result = try await Executable.run(["plan", "--json"] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try result.json()
        let migrations = try #require(json["migrations"] as? [[String: Any]])
        let statuses = Dictionary(uniqueKeysWithValues: migrations.compactMap { migration in
            (migration["version"] as? String).map { ($0, [migration["status"] as? String, migration["reason"] as? String].compactMap { $0 }.joined(separator: ": ")) }
        })
        return (statuses, try #require(json["problems"] as? [[String: Any]]))
    }

    @Test func aMigrationShippedAfterASetDevicesVersionIsOutOfOrderBeforeAndAfterARun() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try manifest(in: folder)
        let store = folder.appendingPathComponent("state.json").path
        #expect(try await Executable.run(["set", "--store", store, "--manifest", manifest, "--version", "1.1"]).status == 0)
        let reason = "version 1.0.5 \"Late fix\" is out of order: shipped in 1.2, after this device's 1.1; MTMigration never runs it"
        for moment in ["before the run", "after the run"] {
            let (statuses, problems) = try await plan(["--manifest", manifest, "--store", store])
            #expect(statuses == ["0.9": "applied", "1.1": "applied", "1.0.5": "skipped: out-of-order"], "\(moment)")
            #expect(problems.contains { ($0["message"] as? String)?.hasPrefix(reason) == true }, "\(moment): \(problems)")
            let text = try await Executable.run(["plan", "--manifest", manifest, "--store", store], environment: ["NO_COLOR": "1"])
            #expect(text.stdout.contains("skipped: out of order         version  1.0.5    Late fix"), "\(moment): \(text.stdout)")
            #expect(text.stdout.contains("warning: " + reason), "\(moment)")
            if moment == "before the run" {
                #expect(try await Executable.run(["run", "--manifest", manifest, "--store", store], in: folder).status == 0)
            }
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("ran.txt").path), "nothing was pending")
    }

    @Test func aMarkReadLenientlyIsShownByPlanAndRunInTextAndJSON() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try manifest(in: folder)
        let store = folder.appendingPathComponent("state.json")
        let marks = #"{"domain":"default","marks":{"historyIsComplete":false,"lastAppVersion":"1.0","lastMigratedVersion":"1.0-beta"}}"#
        try store.write("{\"format\":2,\"compactedBytes\":0}\n\(marks)\n")
        let diagnostic = "\(store.path): domains.default.lastMigratedVersion is \"1.0-beta\", not a version; it counts as 1.0"

        let (statuses, problems) = try await plan(["--manifest", manifest, "--store", store.path])
        #expect(statuses["0.9"] == "applied" && statuses["1.1"] == "pending")
        #expect(problems.contains { $0["message"] as? String == diagnostic && $0["migration"] is NSNull && $0["severity"] as? String == "warning" },
                "\(problems)")
        let text = try await Executable.run(["plan", "--manifest", manifest, "--store", store.path], environment: ["NO_COLOR": "1"])
        #expect(text.stdout.contains("warning: " + diagnostic), "\(text.stdout)")

        let dryRun = try await Executable.run(["run", "--dry-run", "--manifest", manifest, "--store", store.path], environment: ["NO_COLOR": "1"])
        #expect(dryRun.stdout.contains("warning: " + diagnostic), "\(dryRun.stdout)")
        let run = try await Executable.run(["run", "--json", "--manifest", manifest, "--store", store.path], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let runProblems = try #require(try run.json()["problems"] as? [[String: Any]], "\(run.stdout)")
        #expect(runProblems.map { $0["message"] as? String } == [diagnostic])
    }

    @Test("an empty or blank run is a manifest error, found before anything runs", arguments: ["plan", "run"])
    func anEmptyRunIsAManifestErrorBeforeAnythingRuns(command: String) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try manifest(in: folder, extra: #", { "version": "1.2", "title": "Blank", "run": "  " }"#)
        let store = folder.appendingPathComponent("state.json").path
        let result = try await Executable.run([command, "--manifest", manifest, "--store", store], in: folder)
        #expect(result.status == 65)
        #expect(result.stderr.contains(#"migrations[3].run: is empty (version 1.2 "Blank"); give a shell command, or leave "run" out"#), "\(result.stderr)")
        let json = try await Executable.run([command, "--json", "--manifest", manifest, "--store", store], in: folder)
        #expect(json.status == 65)
        let error = try #require(try json.json()["error"] as? [String: Any])
        #expect(error["kind"] as? String == "manifest")
        #expect((error["message"] as? String)?.contains("migrations[3].run: is empty") == true)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("ran.txt").path), "nothing ran")
        #expect(!FileManager.default.fileExists(atPath: store), "nothing was recorded")
    }

    @Test func sqlAsAListIsRefusedSayingItMustBeOneString() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try manifest(in: folder, extra: #", { "version": "1.2", "title": "Pin", "sql": ["SELECT 1", "SELECT 2"] }"#)
        let result = try await Executable.run(["plan", "--manifest", manifest])
        #expect(result.status == 65)
        #expect(result.stderr.contains(#"migrations[3].sql: must be one string holding the statements, separated by ";""#), "\(result.stderr)")
    }
}
