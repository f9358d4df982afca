import Foundation
import Testing

/// `--defaults-plist`, `--simulator` and `set`: a real device's preferences plist, set back to
/// an older release and then upgraded by the real `run`, through the built binary.
@Suite("Command line: preferences plists and set")
struct DefaultsPlistCommandTests {
    /// An XML preferences plist of a device already at 1.0 (build 100), with a key of the app's own.
    func upgradedPlist(in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent("com.example.notes.plist")
        let values: [String: Any] = ["MTMigration.lastMigrationVersion": "1.0", "MTMigration.lastAppVersion": "1.0",
                                     "MTMigration.lastMigrationBuild": "100", "MTMigration.lastAppBuild": "100", "Theme": "dark"]
        try PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0).write(to: url)
        return url
    }

    func values(of plist: URL) throws -> [String: Any] {
        try #require(try PropertyListSerialization.propertyList(from: Data(contentsOf: plist), format: nil) as? [String: Any])
    }

    func migrations(_ result: Executable.Result) throws -> [String] {
        try #require(try result.json()["ran"] as? [[String: Any]]).compactMap { ($0["version"] ?? $0["build"]) as? String }
    }

    @Test func setThenTheRealRunReplaysTheUpgradeFromThatDevice() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plist = try upgradedPlist(in: folder)
        #expect(try migrations(await Executable.run(["run", "--defaults-plist", plist.path, "--json"])).isEmpty)

        let set = try await Executable.run(["set", "--defaults-plist", plist.path, "--version", "0.8", "--build", "90", "--json"])
        #expect(set.status == 0, "\(set.stderr)")
        #expect(try set.json()["state"] as? [String: String] == [
            "lastMigratedVersion": "0.8", "lastAppVersion": "0.8", "lastMigratedBuild": "90", "lastAppBuild": "90"])
        #expect(try values(of: plist)["MTMigration.lastAppVersion"] as? String == "0.8")

        let run = try await Executable.run(["run", "--defaults-plist", plist.path, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try migrations(run) == ["0.9", "0.10", "1.0", "95", "100"])
        #expect(try (run.json()["hooks"] as? [[String: Any]])?.map { $0["result"] as? String } == ["succeeded", "succeeded"])
        let after = try values(of: plist)
        #expect(after["MTMigration.lastMigrationVersion"] as? String == "1.0")
        #expect(after["Theme"] as? String == "dark")
        #expect(try Data(contentsOf: plist).starts(with: Data("<?xml".utf8)))
        #expect(try migrations(await Executable.run(["run", "--defaults-plist", plist.path, "--json"])).isEmpty)
    }

    @Test func setWithoutABuildSaysTheBuildMarksStayAsRecorded() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plist = try upgradedPlist(in: folder)
        let result = try await Executable.run(["set", "--defaults-plist", plist.path, "--version", "0.8"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Set \(plist.path), MTMigration's keys: last migrated version 0.8, last migrated build 100, last app version 0.8, last app build 100."))
        #expect(result.stdout.contains("give --build to set them too"))
        let json = try await Executable.run(["set", "--defaults-plist", plist.path, "--version", "0.9", "--domain", "database", "--json"]).json()
        #expect(json["domain"] as? String == "database")
        #expect(try values(of: plist)["MigrationExplorer.database.lastMigrationVersion"] as? String == "0.9")
    }

    @Test func setReportsABadVersionAndABadStoreAtOnce() async throws {
        let result = try await Executable.run(["set", "--defaults-plist", "/nowhere/p.plist", "--version", "v1", "--build", "9", "--json"])
        #expect(result.status == 65)
        let message = try #require((try result.json()["error"] as? [String: Any])?["message"] as? String)
        #expect(message.contains("--version: \"v1\""))
        #expect(message.contains("the folder /nowhere does not exist"))
        #expect(!message.contains("--build"))
    }

    @Test func setWorksOnAStateFileToo() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("state.json").path
        _ = try await Executable.run(["run", "--store", store])
        #expect(try await Executable.run(["set", "--store", store, "--version", "0.8", "--build", "90"]).status == 0)
        #expect(try migrations(await Executable.run(["run", "--store", store, "--json"])) == ["0.9", "0.10", "1.0", "95", "100"])
    }

    @Test func resetForgetsAPlistsMarksAndKeepsItsOtherKeys() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plist = try upgradedPlist(in: folder)
        let result = try await Executable.run(["reset", "--defaults-plist", plist.path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try (result.json()["domains"] as? [[String: Any]])?.first?["forgotten"] as? [String] == [
            "last migrated version 1.0", "last migrated build 100", "last app version 1.0", "last app build 100"])
        let after = try values(of: plist)
        #expect(after["MTMigration.lastMigrationVersion"] == nil)
        #expect(after["Theme"] as? String == "dark")

        let missing = folder.appendingPathComponent("missing.plist")
        let nothing = try await Executable.run(["reset", "--defaults-plist", missing.path])
        #expect(nothing.stdout.contains("records nothing: nothing to forget"))
        #expect(!FileManager.default.fileExists(atPath: missing.path))
    }

    // MARK: --simulator, with a fake xcrun on PATH

    /// A folder holding an `xcrun` that logs its arguments to `xcrun.log` and runs `body`.
    func fakeXcrun(in folder: URL, _ body: String) throws -> URL {
        let bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let script = bin.appendingPathComponent("xcrun")
        try script.write("#!/bin/sh\necho \"$@\" >> \"\(folder.path)/xcrun.log\"\n\(body)\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        return bin
    }

    @Test func simulatorResolvesTheAppsDataContainerWithXcrun() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let container = folder.appendingPathComponent("Containers/Data/Application/1234")
        let preferences = container.appendingPathComponent("Library/Preferences")
        try FileManager.default.createDirectory(at: preferences, withIntermediateDirectories: true)
        let bin = try fakeXcrun(in: folder, "echo '\(container.path)'")
        let environment = ["PATH": bin.path + ":/usr/bin:/bin"]

        let set = try await Executable.run(["set", "--simulator", "com.example.notes", "--version", "0.8", "--build", "90"], environment: environment)
        #expect(set.status == 0, "\(set.stderr)")
        #expect(set.stderr.contains("quit com.example.notes in the simulator first"))
        let plist = preferences.appendingPathComponent("com.example.notes.plist")
        #expect(try values(of: plist)["MTMigration.lastMigrationVersion"] as? String == "0.8")

        let run = try await Executable.run(["run", "--simulator", "com.example.notes", "--device", "UDID-1", "--json"], environment: environment)
        #expect(try migrations(run) == ["0.9", "0.10", "1.0", "95", "100"])
        #expect(try folder.appendingPathComponent("xcrun.log").read() == """
        simctl get_app_container booted com.example.notes data
        simctl get_app_container UDID-1 com.example.notes data

        """)
    }

    @Test("a missing or failing xcrun is a clear error", arguments: [
        ("missing", nil, "xcrun was not found on PATH"),
        ("failing", "echo 'No devices are booted.' >&2; exit 149", "exited with status 149: No devices are booted.; is the simulator booted"),
        ("no folder", "echo /nowhere/at/all", "printed \"/nowhere/at/all\", which is not a folder"),
    ])
    func xcrunProblems(name: String, body: String?, message: String) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let bin = try body.map { try fakeXcrun(in: folder, $0) } ?? folder
        let result = try await Executable.run(["plan", "--simulator", "com.example.notes", "--json"], environment: ["PATH": bin.path])
        #expect(result.status == 65)
        let error = try #require(try result.json()["error"] as? [String: Any])
        #expect(error["kind"] as? String == "store")
        #expect((error["message"] as? String)?.contains(message) == true, "\(error)")
    }
}
