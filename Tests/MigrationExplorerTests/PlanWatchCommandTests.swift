import Foundation
import MigrationTestSupport
import Testing

/// `plan --watch` through the built binary: a change by another process prints a new plan
/// within a second (a table under a time stamp, or one JSON document a line), nothing is
/// printed while nothing changes (what comes next is the next change's plan alone), a manifest's saves are followed through a problem and its
/// fix, Ctrl-C and SIGTERM end it with 0, and it is refused where nothing can change.
/// Serialized: each test blocks a thread of the concurrency pool while its processes run.
@Suite(.serialized) struct PlanWatchCommandTests {
    /// The store options each kind of file store is watched with, in `folder`.
    static let stores: [[String]] = [["--store", "state.json"], ["--defaults-plist", "prefs.plist"], ["--sqlite", "app.sqlite"]]

    static let manifest = #"{"app": "Notes", "appVersion": "1.1", "migrations": [{"version": "1.0", "title": "First"}, {"version": "1.1", "title": "Second"}]}"#

    /// A store at version 0.8, watched, its first plan printed.
    func watching(_ store: [String], json: Bool = false, in folder: URL) async throws -> WatchingCommand {
        try #require(await Executable.run(["set", "--version", "0.8"] + store, in: folder).status == 0)
        let watch = try await WatchingCommand(["plan", "--watch"] + (json ? ["--json"] : []) + store, in: folder)
        try #require(await waitUntil { watch.lines.count > (json ? 0 : 1) }, "no first plan: \(watch.stderr)")
        return watch
    }

    @Test(arguments: stores)
    func aSetByAnotherProcessPrintsANewTableUnderATimeStamp(_ store: [String]) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let watch = try await watching(store, in: folder)
        #expect(watch.headlines.count == 1 && watch.headlines[0].contains("watching"), "\(watch.stdout)")

        try #require(await Executable.run(["set", "--version", "0.9"] + store, in: folder).status == 0)

        #expect(await waitUntil(timeout: 10) { watch.stdout.contains("0.9 Add GUIDs to notes applied") }, "\(watch.stdout)\n\(watch.stderr)")
        #expect(await waitUntil { watch.stdout.hasSuffix("hooks fire\n") && watch.headlines.count == 2 }, "\(watch.stdout)")
    }

    @Test(arguments: stores)
    func aRunByAnotherProcessPrintsANewJSONLine(_ store: [String]) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let watch = try await watching(store, json: true, in: folder)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(watch.lines[0].utf8)) as? [String: Any])
        #expect(first["from"] as? String == "0.8")

        try #require(await Executable.run(["run"] + store, in: folder).status == 0)

        // Each migration's record is a write of its own: a plan may be printed between them;
        // the last one shows every migration applied.
        #expect(await waitUntil(timeout: 10) { Self.from(watch.lines.last) == "1.0" && !Self.hasPending(watch.lines.last) },
                "\(watch.stdout)\n\(watch.stderr)")
    }

    /// Whether a plan's JSON line has a pending migration.
    static func hasPending(_ line: String?) -> Bool {
        let document = line.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } as? [String: Any]
        return (document?["migrations"] as? [[String: Any]])?.contains { $0["status"] as? String == "pending" } ?? true
    }

    /// The "from" of a plan's JSON line.
    static func from(_ line: String?) -> String? {
        let document = line.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } as? [String: Any]
        return document?["from"] as? String
    }

    /// Shown by what comes next, not by a pause: after a read by another process, a change
    /// made then is the next thing printed, alone.
    @Test func nothingIsPrintedWhileNothingChangesNorForAReadByAnotherProcess() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let watch = try await watching(["--store", "state.json"], json: true, in: folder)
        let printed = watch.lines

        try #require(await Executable.run(["plan", "--store", "state.json"], in: folder).status == 0)
        try #require(await Executable.run(["set", "--version", "0.9", "--store", "state.json"], in: folder).status == 0)

        #expect(await waitUntil(timeout: 10) { Self.from(watch.lines.last) == "0.9" }, "\(watch.stdout)\n\(watch.stderr)")
        #expect(watch.lines.count == printed.count + 1, "only the set printed a plan: \(watch.stdout)")
        #expect(watch.stderr.isEmpty, "\(watch.stderr)")
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func aSignalEndsTheWatchWithExitZeroAfterAWholeLine(_ signal: Int32) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let watch = try await watching(["--store", "state.json"], json: true, in: folder)

        #expect(await watch.end(with: signal) == 0, "\(watch.stderr)")
        #expect(watch.stdout.hasSuffix("}\n"))
    }

    @Test(arguments: ["rename", "in place"])
    func aManifestSavedPrintsTheNewPlanSayingWhatChanged(_ save: String) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("notes.json")
        try manifest.write(Self.manifest)
        let watch = try await WatchingCommand(["plan", "--watch", "--manifest", "notes.json"], in: folder)
        try #require(await waitUntil { watch.stdout.contains("2 pending") }, "\(watch.stdout)\n\(watch.stderr)")

        let saved = Self.manifest.replacing(#""title": "Second"}"#, with: #""title": "Second"}, {"version": "1.1.1", "title": "Third"}"#)
            .replacing(#""appVersion": "1.1""#, with: #""appVersion": "1.1.1""#)
        if save == "rename" {
            let temporary = folder.appendingPathComponent(".notes.json.swp")
            try temporary.write(saved)
            try #require(rename(temporary.path, manifest.path) == 0)
        } else {
            let handle = try FileHandle(forWritingTo: manifest)
            try handle.truncate(atOffset: 0)
            try handle.write(contentsOf: Data(saved.utf8))
            try handle.close()
        }

        #expect(await waitUntil(timeout: 10) { watch.stdout.contains("3 pending") }, "\(watch.stdout)\n\(watch.stderr)")
        #expect(watch.headlines.last?.contains("manifest: 1.1.1 Third added") == true, "\(watch.headlines)")
    }

    @Test(arguments: [false, true])
    func anInvalidManifestSaysItsProblemAndTheFixedOneIsPrintedAgain(_ json: Bool) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("notes.json")
        try manifest.write(Self.manifest)
        let watch = try await WatchingCommand(["plan", "--watch", "--manifest", "notes.json"] + (json ? ["--json"] : []), in: folder)
        try #require(await waitUntil { watch.lines.count >= (json ? 1 : 2) }, "\(watch.stdout)\n\(watch.stderr)")
        let printed = watch.lines.count

        try manifest.write(#"{"app": "Notes", "appVersion": "1.1", "migrations": [{"version": "1.0", "title": }]}"#)

        #expect(await waitUntil { watch.stderr.contains("line 1") && watch.stderr.contains("out of date") }, "\(watch.stderr)")
        if json {
            #expect(await waitUntil { watch.lines.count == 2 }, "\(watch.stdout)")
            let error = try #require(try JSONSerialization.jsonObject(with: Data(watch.lines[1].utf8)) as? [String: Any])
            #expect((error["error"] as? [String: Any])?["kind"] as? String == "manifest", "\(error)")
        }
        #expect(watch.isRunning)
        let problem = watch.lines.count

        try manifest.write(Self.manifest)

        #expect(await waitUntil { watch.lines.count > problem && watch.stdout.contains(json ? #""title":"Second""# : "2 pending, ") }, "\(watch.stdout)")
        #expect(watch.lines.count > printed)
    }

    @Test(arguments: [["plan", "--watch"], ["plan", "--watch", "--json"], ["run", "--watch", "--store", "state.json"],
                      ["run", "--dry-run", "--watch", "--store", "state.json"]])
    func watchIsRefusedWhereNothingCanChangeOrNothingIsShownAgain(_ arguments: [String]) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }

        let result = try #require(try await Executable.run(arguments, in: folder, endingWithin: 30))

        #expect(result.status == 64, "\(result.stderr)")
        let advice = arguments[0] == "run" ? "plan --watch" : "give a store (--store"
        #expect(result.stderr.contains(advice), "\(result.stderr)")
        if arguments.contains("--json") { #expect((try result.json()["error"] as? [String: Any])?["kind"] as? String == "usage") }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("state.json").path))
    }

    @Test func theHelpSaysWhatIsFollowedHowItEndsAndWhereItIsRefused() async throws {
        let help = try await Executable.run(["plan", "--help"]).stdout
        for words in ["--watch", "one compact JSON document on a line", "Ctrl-C (SIGINT) or SIGTERM", "exit status 0",
                      "--watch needs a store or --manifest", "A lost PostgreSQL connection"] {
            #expect(help.replacing(#/\s+/#, with: " ").contains(words), "\(words)")
        }
    }
}
