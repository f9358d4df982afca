import Foundation
import Testing

/// What a new user meets first: one answer per "from" whatever the command, reset following
/// the domain rules on a plist, manifests checked and written whole, options that do nothing
/// refused, and errors that say what is wrong.
@Suite("Command line: consistent answers")
struct ConsistentAnswersCommandTests {
    let folder: URL
    let manifest: String

    init() throws {
        folder = try makeTemporaryFolder()
        manifest = TUIMatrixTests.manifest
    }

    func run(_ arguments: [String]) async throws -> Executable.Result {
        try await Executable.run(arguments, in: folder)
    }

    /// The version migrations `plan --json` lists, by status.
    func statuses(_ arguments: [String]) async throws -> [String: String] {
        let result = try await run(["plan", "--json", "--manifest", manifest] + arguments)
        #expect(result.status == 0, "\(result.stderr)")
        let migrations = try #require(try result.json()["migrations"] as? [[String: Any]])
        return Dictionary(uniqueKeysWithValues: migrations.compactMap { entry in
            (entry["version"] as? String).map { ($0, [entry["status"], entry["reason"]].compactMap { $0 as? String }.joined(separator: ": ")) }
        })
    }

    /// The matrix row of `from`: what runs, what never will.
    func row(_ from: String) async throws -> (runs: [String], outOfOrder: [String]) {
        let result = try await run(["matrix", "--json", "--manifest", manifest])
        let rows = try #require(try result.json()["rows"] as? [[String: Any]])
        let row = try #require(rows.first { $0["from"] as? String == from })
        return (row["runs"] as? [String] ?? [], row["outOfOrder"] as? [String] ?? [])
    }

    @Test func everyCommandGivesTheMatrixAnswerForAReleaseOverARealStore() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try await run(["set", "--manifest", manifest, "--defaults-plist", "t.plist", "--version", "0.10"]).status == 0)
        for from in ["0.9", "0.10"] {
            let row = try await row(from)
            for store in [[], ["--defaults-plist", "t.plist"]] {
                let statuses = try await statuses(store + ["--from", from])
                #expect(statuses.filter { $0.value == "pending" }.keys.sorted() == row.runs.sorted(), "from \(from) \(store)")
                #expect(statuses.filter { $0.value == "skipped: out-of-order" }.keys.sorted() == row.outOfOrder, "from \(from) \(store)")
            }
        }
        // The store as set: a device that last ran 0.10, exactly the matrix's row.
        let recorded = try await statuses(["--defaults-plist", "t.plist"])
        #expect(recorded["0.9"] == "skipped: out-of-order")
        #expect(recorded.filter { $0.value == "pending" }.keys.sorted() == (try await row("0.10").runs.sorted()))
        // Set to 0.9: the replayed device's marks, so 0.9 runs as the matrix says.
        let set = try await run(["set", "--manifest", manifest, "--defaults-plist", "t.plist", "--version", "0.9", "--json"])
        let text = try await run(["set", "--manifest", manifest, "--defaults-plist", "t.plist", "--version", "0.9"])
        #expect(text.stdout.contains("The last migrated version (none) is where replaying the app's releases up to 0.9 leaves it"), "\(text.stdout)")
        let state = try #require(try set.json()["state"] as? [String: Any])
        #expect(state["lastMigratedVersion"] is NSNull && state["lastAppVersion"] as? String == "0.9", "\(state)")
        #expect(try await statuses(["--defaults-plist", "t.plist"]).filter { $0.value == "pending" }.keys.sorted() == (try row("0.9").runs.sorted()))
        let whatsNew = try await run(["whats-new", "--json", "--manifest", manifest, "--defaults-plist", "t.plist"])
        #expect(try (whatsNew.json()["pages"] as? [[String: Any]])?.count == 2, "\(whatsNew.stdout)")
    }

    @Test func resetOnAPlistFollowsTheDomainRules() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try await run(["set", "--defaults-plist", "r.plist", "--domain", "database", "--version", "0.9"]).status == 0)
        let one = try await run(["reset", "--defaults-plist", "r.plist"])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stdout.contains("domain \"database\": forgot last migrated version 0.9"), "\(one.stdout)")

        #expect(try await run(["set", "--defaults-plist", "r.plist", "--domain", "database", "--version", "0.9"]).status == 0)
        #expect(try await run(["set", "--defaults-plist", "r.plist", "--domain", "settings", "--version", "0.8"]).status == 0)
        let several = try await run(["reset", "--defaults-plist", "r.plist"])
        #expect(several.status == 64)
        #expect(several.stderr.contains("holds 2 domains (database, settings); give --domain NAME, or --all-domains"), "\(several.stderr)")

        let all = try await run(["reset", "--defaults-plist", "r.plist", "--all-domains", "--json"])
        #expect(all.status == 0, "\(all.stderr)")
        let domains = try #require(try all.json()["domains"] as? [[String: Any]])
        #expect(domains.map { $0["name"] as? String } == ["database", "settings"])
        #expect(domains.map { ($0["forgotten"] as? [String])?.isEmpty } == [false, false])

        // MTMigration's keys are what no --domain names: reset, the named domains listed as left alone.
        #expect(try await run(["set", "--defaults-plist", "r.plist", "--version", "0.8"]).status == 0)
        let mixed = try await run(["reset", "--defaults-plist", "r.plist"])
        #expect(mixed.status == 0)
        #expect(mixed.stdout.contains("r.plist, MTMigration's keys: forgot last migrated version 0.8"), "\(mixed.stdout)")
        #expect(mixed.stdout.contains("Left alone: domains \"database\", \"settings\""), "\(mixed.stdout)")
    }

    func writeManifest(_ text: String) throws -> String {
        let url = folder.appendingPathComponent("m.json")
        try url.write(text)
        return url.path
    }

    @Test func duplicateReleasesAreErrorsAndUnsortedOnesAWarning() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        for releases in [#"["0.8", "0.8"]"#, #"["0.8", "0.9.0", "0.9"]"#] {
            let path = try writeManifest(#"{ "appVersion": "1.0", "releases": \#(releases), "migrations": [] }"#)
            let result = try await run(["plan", "--manifest", path])
            #expect(result.status == 65)
            #expect(result.stderr.contains("releases["), "\(result.stderr)")
            #expect(result.stderr.contains("duplicates releases["), "\(result.stderr)")
        }
        let path = try writeManifest(#"{ "appVersion": "1.0", "releases": ["0.9", "0.8"], "migrations": [] }"#)
        let unsorted = try await run(["matrix", "--json", "--manifest", path])
        #expect(unsorted.status == 0)
        #expect(unsorted.stderr.contains("warning: \(path): releases are not in ascending order; read as 0.8, 0.9"), "\(unsorted.stderr)")
        #expect(try (unsorted.json()["rows"] as? [[String: Any]])?.map { $0["from"] as? String } == [nil, "0.8", "0.9"])
    }

    @Test func exportWritesAManifestWholeCommandsIncluded() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let exported = try await run(["export", "--manifest", manifest])
        #expect(exported.status == 0, "\(exported.stderr)")
        let copy = folder.appendingPathComponent("copy.json")
        try copy.write(exported.stdout)
        func migrations(_ path: String) throws -> [[String: String]] {
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
            return try #require(object?["migrations"] as? [[String: Any]]).map { migration in
                migration.compactMapValues { value in (value as? String) ?? (value as? NSNumber).map { "\($0.doubleValue)" } }
            }
        }
        let original = try migrations(manifest)
        #expect(original.contains { $0["run"] != nil } && original.contains { $0["timeout"] != nil })
        #expect(try migrations(copy.path) == original)
        // Exporting the export changes nothing.
        #expect(try await run(["export", "--manifest", copy.path]).stdout == exported.stdout)
    }

    @Test func whatsNewMarkdownIsEscapedAndAnEmptyLineIsAnError() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try writeManifest(#"""
        { "app": "Notes_2", "appVersion": "1.0", "migrations": [
          { "version": "1.0", "title": "Tags *and* #labels", "whatsNew": ["Use _under_ and `code`\nover two lines", "a [link](x) <b>"] } ] }
        """#)
        let result = try await run(["whats-new", "--markdown", "--manifest", path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) == [
            "## What's New in Notes\\_2 1.0", "", "### 1.0", "",
            "- Use \\_under\\_ and \\`code\\` over two lines", "- a \\[link\\](x) \\<b\\>", ""])

        let empty = try writeManifest(#"{ "appVersion": "1.0", "migrations": [ { "version": "1.0", "title": "t", "whatsNew": ["ok", " "] } ] }"#)
        let refused = try await run(["whats-new", "--manifest", empty])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("migrations[0].whatsNew[1]: is empty"), "\(refused.stderr)")
    }

    @Test("an option the command does not use is refused", arguments: [
        // A command's help lists only the options it takes; any other is unknown to it.
        // `matrix` says why it takes no "from", and how to see one upgrade.
        (["matrix", "--from", "0.8"], "matrix takes every release as \"from\""),
        (["matrix", "--from-build", "90"], "run 'migration-explorer plan --from-build 90'"),
        (["matrix", "--json", "--from=0.9"], "run 'migration-explorer plan --from 0.9'"),
        (["export", "--store", "s.json", "--from", "0.8"], "Unknown option '--store'"),
        (["export", "--fail", "0.9"], "Unknown option '--fail'"),
        (["export", "--fresh-install", "baseline"], "Unknown option '--fresh-install'"),
        (["set", "--defaults-plist", "p.plist", "--version", "1.0", "--version", "2.0"], "--version is given more than once"),
        (["plan", "--domain", ""], "--domain: the name is empty"),
        (["set", "--defaults-plist", "", "--version", "0.8"], "--defaults-plist: the path is empty"),
        (["plan", "--sqlite", ""], "--sqlite: the path is empty"),
        (["plan", "--manifest", ""], "--manifest: the path is empty"),
    ])
    func refused(arguments: [String], message: String) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func aManifestThatIsADirectoryIsNamedAsOne() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await run(["export", "--manifest", folder.path])
        #expect(result.status == 65)
        #expect(result.stderr.contains("file: is a directory, not a manifest file"), "\(result.stderr)")
        #expect(!result.stderr.contains("NSCocoaErrorDomain"))
    }

    @Test func aMissingManifestIsNoSuchFile() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await run(["plan", "--manifest", folder.appendingPathComponent("nope.json").path])
        #expect(result.status == 65)
        #expect(result.stderr.contains("nope.json: 1 problem") && result.stderr.contains("file: no such file"), "\(result.stderr)")
        #expect(!result.stderr.contains("could not be completed"), "\(result.stderr)")
    }

    @Test(arguments: ["set", "reset", "matrix"])
    func aCommandThatNeedsOrIgnoresASandboxDoesNotOfferOneInItsHelp(command: String) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let help = try await run([command, "--help"]).stdout
        #expect(help.contains("--store"), "\(help)")
        #expect(!help.contains("default: a sandbox"), "\(help)")
    }

    @Test func setHelpHasNoStrayBackslashes() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let help = try await run(["set", "--help"])
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("(with --build, the build marks too) of the store's domain"), "\(help.stdout)")
        #expect(!help.stdout.contains("\\"))
    }
}
