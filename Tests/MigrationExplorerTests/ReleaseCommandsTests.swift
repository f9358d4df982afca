import Foundation
import Testing

/// `matrix`, `whats-new`, `export`, and what `plan` says about release history and downgrades.
@Suite("Command line: releases")
struct ReleaseCommandsTests {
    /// 0.7 was added in 1.0 for version 0.7; 1.0 fails while the file `fail` exists.
    func manifest(in folder: URL) throws -> String {
        let url = folder.appendingPathComponent("manifest.json")
        try url.write("""
        { "app": "Notes", "appVersion": "1.0", "releases": ["0.8", "0.9", "0.5"],
          "migrations": [
            { "version": "0.5", "title": "Five" },
            { "version": "0.8", "title": "Eight", "whatsNew": ["Eight is great"] },
            { "version": "0.9", "title": "Nine", "whatsNew": ["Nine", "lines"] },
            { "version": "0.10", "title": "Ten", "run": "true" },
            { "version": "1.0", "title": "One", "whatsNew": ["One"], "run": "test ! -e fail" },
            { "version": "0.7", "title": "Trim titles", "since": "1.0" }
          ] }
        """)
        return url.path
    }

    @Test func matrixJSONHasARowPerReleaseAfterTheFreshInstall() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await Executable.run(["matrix", "--json", "--manifest", try manifest(in: folder)])
        #expect(result.status == 0, "\(result.stderr)")
        let json = try result.json()
        #expect(json["to"] as? String == "1.0")
        let rows = try #require(json["rows"] as? [[String: Any]])
        try #require(rows.map { $0["from"] as? String } == [nil, "0.5", "0.8", "0.9"])
        #expect(rows[0]["from"] is NSNull)
        #expect(rows.map { $0["runs"] as? [String] } == [["0.5", "0.7", "0.8", "0.9", "0.10", "1.0"], ["0.7", "0.8", "0.9", "0.10", "1.0"],
                                                        ["0.9", "0.10", "1.0"], ["0.10", "1.0"]])
        #expect(rows.map { $0["outOfOrder"] as? [String] } == [[], [], ["0.7"], ["0.7"]])
        #expect(rows.map { $0["whatsNew"] as? Int } == [3, 3, 2, 1])
        #expect(rows.map { $0["failed"] as? [String] } == [[], [], [], []])
    }

    @Test func matrixShowsWhatFailedWhenLastRunInTheStore() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try manifest(in: folder)
        let store = folder.appendingPathComponent("state.json").path
        try folder.appendingPathComponent("fail").write("")
        #expect(try await Executable.run(["run", "--manifest", manifest, "--store", store]).status == 1)
        let result = try await Executable.run(["matrix", "--manifest", manifest, "--store", store], environment: ["NO_COLOR": "1"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("  0.9            2: 0.10 1.0                  0.7           1.0              1 page\n"), "\(result.stdout)")
        let json = try await Executable.run(["matrix", "--json", "--manifest", manifest, "--store", store]).json()
        #expect((json["rows"] as? [[String: Any]])?.map { $0["failed"] as? [String] } == [["1.0"], ["1.0"], ["1.0"], ["1.0"]])
    }

    @Test func planWarnsAboutOutOfOrderAndNotesAGuessedHistory() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try manifest(in: folder)
        let shipped = try await Executable.run(["plan", "--manifest", manifest, "--from", "0.9"])
        #expect(shipped.stdout.contains("warning: version 0.7 \"Trim titles\" is out of order: shipped in 1.0, after this device's 0.9; MTMigration never runs it, since this device last migrated at 0.9"))
        #expect(shipped.stdout.contains("give it a version above the last release, e.g. 0.9.1"))
        #expect(!shipped.stdout.contains("guessed"))
        let guessed = try await Executable.run(["plan", "--manifest", manifest, "--from", "0.85"])
        #expect(guessed.stdout.contains("note: 0.85 is not a shipped release (0.5, 0.8, 0.9): its history is guessed"))
        let json = try await Executable.run(["plan", "--json", "--manifest", manifest, "--from", "0.85"]).json()
        #expect((json["historyNote"] as? String)?.hasPrefix("0.85 is not a shipped release") == true)
        #expect(try await Executable.run(["plan", "--json", "--manifest", manifest, "--from", "0.9"]).json()["historyNote"] is NSNull)
    }

    @Test func markdownReleaseNotesGroupWhatsNewByTheReleaseUsersGotIt() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("m.json")
        try #"""
        { "app": "Notes", "appVersion": "1.0", "appBuild": "120", "migrations": [
          { "version": "0.7", "title": "Trim titles internally", "since": "1.0", "whatsNew": ["Tidier titles"] },
          { "version": "0.9", "title": "Add GUIDs", "whatsNew": ["Sync"] },
          { "version": "1.0", "title": "Move expiry dates to UTC", "whatsNew": ["Expiry dates in your time zone"] },
          { "build": "118", "title": "Rebuild the index", "whatsNew": ["Faster search"] } ] }
        """#.write(to: manifest, atomically: true, encoding: .utf8)
        let result = try await Executable.run(["whats-new", "--markdown", "--manifest", manifest.path, "--from", "0.5", "--from-build", "100"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == """
            ## What's New in Notes 1.0

            ### 0.9

            - Sync

            ### 1.0

            - Tidier titles
            - Expiry dates in your time zone

            ### build 118

            - Faster search

            """, "\(result.stdout)")
        #expect(!result.stdout.contains("Move expiry dates"), "an internal title shows")
    }

    @Test func whatsNewAsTextMarkdownAndJSON() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try manifest(in: folder)
        let arguments = ["whats-new", "--manifest", manifest, "--from", "0.8", "--to", "1.0"]
        let markdown = try await Executable.run(arguments + ["--markdown"])
        // Markdown release notes head each release, not each migration's internal title.
        #expect(markdown.stdout == "## What's New in Notes 1.0\n\n### 0.9\n\n- Nine\n- lines\n\n### 1.0\n\n- One\n")
        let text = try await Executable.run(arguments, environment: ["NO_COLOR": "1", "LANG": "C.UTF-8"])
        #expect(text.stdout.contains("Nine\n\n  • Nine\n  • lines"))
        let json = try await Executable.run(arguments + ["--json"]).json()
        #expect(json["from"] as? String == "0.8")
        let pages = try #require(json["pages"] as? [[String: Any]])
        #expect(pages.map { ($0["migration"] as? [String: String])?["version"] } == ["0.9", "1.0"])
        #expect(pages.map { $0["lines"] as? [String] } == [["Nine", "lines"], ["One"]])
        let both = try await Executable.run(arguments + ["--json", "--markdown"])
        #expect(both.status == 64)
        #expect(both.stderr.contains("give --json or --markdown, not both"))
    }

    @Test func aDowngradeIsAProblemInPlanJSON() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = try await Executable.run(["plan", "--json", "--manifest", try manifest(in: folder), "--from", "1.2"]).json()
        let problems = try #require(json["problems"] as? [[String: Any]])
        #expect(problems.first?["message"] as? String == "downgrade: the device recorded 1.2, the app is 1.0")
        #expect(problems.first?["migration"] is NSNull)
        #expect(problems.first?["severity"] as? String == "warning")
    }

    /// The embedded registry, exported and opened with --manifest, plans alike.
    @Test func anEmbeddedRegistryExportsAManifestThatPlansAlike() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let exported = try await Executable.run(["export"], binary: Executable.embeddedExample)
        #expect(exported.status == 0)
        #expect(!exported.stdout.contains("\"run\""))
        let manifest = folder.appendingPathComponent("recipes.json")
        try manifest.write(exported.stdout)
        for from in ["2.0", "1.0"] {
            let embedded = try await Executable.run(["plan", "--json", "--from", from, "--from-build", "300"], binary: Executable.embeddedExample)
            let loaded = try await Executable.run(["plan", "--json", "--from", from, "--from-build", "300", "--manifest", manifest.path])
            #expect(loaded.status == 0, "\(loaded.stderr)")
            #expect(loaded.stdout == embedded.stdout)
        }
    }

    /// `export` reads no store: a manifest with SQL is written again whole, its SQL included.
    @Test func aManifestWithSQLExportsWithItsSQL() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("m.json")
        try manifest.write(#"{ "appVersion": "1.0", "migrations": [ { "version": "0.9", "title": "Pin notes", "sql": "ALTER TABLE note ADD pinned INTEGER" } ] }"#)
        let exported = try await Executable.run(["export", "--manifest", manifest.path, "--to", "1.1"])
        #expect(exported.status == 0, "\(exported.stderr)")
        let json = try exported.json()
        #expect(json["appVersion"] as? String == "1.1")
        #expect((json["migrations"] as? [[String: Any]])?.first?["sql"] as? String == "ALTER TABLE note ADD pinned INTEGER")
        // Running it still needs the app's database.
        #expect(try await Executable.run(["plan", "--manifest", manifest.path]).status == 65)
    }

    @Test(arguments: [["--from", "0.8"], ["--from=0.8"], ["--from-build", "90"]])
    func matrixFromSaysEveryReleaseIsAFromAndHowToSeeOne(from: [String]) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try manifest(in: folder)
        let result = try await Executable.run(["matrix", "--manifest", manifest] + from)
        #expect(result.status == 64)
        #expect(!result.stderr.contains("Did you mean"), "\(result.stderr)")
        #expect(result.stderr.contains("matrix takes every release as \"from\""), "\(result.stderr)")
        #expect(result.stderr.contains("plan --from"), "\(result.stderr)")
        let json = try await Executable.run(["matrix", "--json", "--manifest", manifest] + from)
        #expect(json.status == 64)
        #expect(((try json.json()["error"] as? [String: Any])?["message"] as? String)?.contains("every release") == true, "\(json.stdout)")
    }

    @Test func emptyListsInJSONAreWrittenAsBrackets() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = try manifest(in: folder)
        let matrix = try await Executable.run(["matrix", "--json", "--manifest", manifest])
        #expect(matrix.stdout.contains(#""outOfOrder" : [],"#), "\(matrix.stdout)")
        let plan = try await Executable.run(["plan", "--json", "--manifest", manifest])
        #expect(plan.stdout.contains(#""problems" : [],"#) || plan.stdout.contains(#""runsGoingOn" : [],"#), "\(plan.stdout)")
        for output in [matrix.stdout, plan.stdout] {
            #expect(!output.contains("[\n\n") && !output.contains("{\n\n"), "\(output)")
        }
    }
}
