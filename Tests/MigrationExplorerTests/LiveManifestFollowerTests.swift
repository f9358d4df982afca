import Foundation
@testable import MigrationExplorer
import MigrationManifest
import MigrationTestSupport
import Testing

/// A manifest followed through real saves: by rename and in place each give the new
/// registry and what changed; an invalid save keeps the last good one and says where the
/// JSON is broken, until a save fixes it.
@Suite struct LiveManifestFollowerTests {
    private func manifest(_ versions: [String]) -> String {
        let migrations = versions.map { #"{"version": "\#($0)", "title": "Step \#($0)"}"# }
        return #"{"app": "Notes", "appVersion": "2.0", "migrations": [\#(migrations.joined(separator: ", "))]}"#
    }

    /// A folder with `manifest.json` declaring 1.0, a watch on it and a follower of it.
    private struct Followed {
        let folder: URL
        let file: URL
        let recorder: ChangeRecorder<FileChange>
        var follower: ManifestFollower

        init(_ text: String) throws {
            folder = try makeTemporaryFolder()
            file = folder.appendingPathComponent("manifest.json")
            try Data(text.utf8).write(to: file)
            follower = ManifestFollower(path: file.path, shown: try ExplorerApp.loadManifest(path: file.path).registry)
            recorder = ChangeRecorder(try FileWatch(files: [file]).changes())
        }

        /// Runs `change` (another process), waits for its burst and rereads.
        mutating func after(_ command: [String]) async throws -> ManifestFollower.Outcome? {
            let before = recorder.count
            let result = try await Executable.run(Array(command.dropFirst()), in: folder, binary: URL(fileURLWithPath: command[0]))
            try #require(result.status == 0, "\(result.stderr)")
            guard await waitUntil(timeout: 1, { recorder.count > before }) else { return nil }
            return follower.reread(width: 80)
        }

        func end() {
            recorder.stop()
            try? FileManager.default.removeItem(at: folder)
        }
    }

    private func summary(_ outcome: ManifestFollower.Outcome?) -> String? {
        if case .updated(_, let summary) = outcome { summary } else { nil }
    }

    @Test(arguments: [["/bin/mv", "saved.json", "manifest.json"], ["/bin/cp", "saved.json", "manifest.json"]])
    func aSaveByRenameOrInPlaceGivesTheNewRegistryAndWhatChanged(_ command: [String]) async throws {
        var followed = try Followed(manifest(["1.0"]))
        defer { followed.end() }
        try Data(manifest(["1.0", "1.1", "1.2"]).utf8).write(to: followed.folder.appendingPathComponent("saved.json"))

        let outcome = try await followed.after(command)

        #expect(summary(outcome) == "manifest: 2 migrations added")
        #expect(followed.follower.registry.migrations.map(\.declared) == ["1.0", "1.1", "1.2"])
    }

    @Test func anInvalidSaveKeepsTheLastGoodRegistryWithItsProblemUntilFixed() async throws {
        var followed = try Followed(manifest(["1.0"]))
        defer { followed.end() }
        try Data("{\n  \"app\": \"Notes\",\n  \"migrations\": [,]\n}".utf8).write(to: followed.folder.appendingPathComponent("broken.json"))
        try Data(manifest(["1.0", "1.1"]).utf8).write(to: followed.folder.appendingPathComponent("fixed.json"))

        let broken = try await followed.after(["/bin/cp", "broken.json", "manifest.json"])
        guard case .broken(let problem) = broken else {
            Issue.record("expected the manifest's problem, got \(String(describing: broken))")
            return
        }
        #expect(problem.description.contains("line 3, column"), "\(problem)")
        #expect(followed.follower.problem == problem)
        #expect(followed.follower.registry.migrations.map(\.declared) == ["1.0"])

        let fixed = try await followed.after(["/bin/mv", "fixed.json", "manifest.json"])
        #expect(summary(fixed) == "manifest: 1.1 Step 1.1 added")
        #expect(followed.follower.problem == nil)
    }

    @Test func aDeletedManifestIsAProblemThatKeepsTheLastGoodRegistry() async throws {
        var followed = try Followed(manifest(["1.0"]))
        defer { followed.end() }

        let outcome = try await followed.after(["/bin/rm", "manifest.json"])

        guard case .broken = outcome else {
            Issue.record("expected the manifest's problem, got \(String(describing: outcome))")
            return
        }
        #expect(followed.follower.registry.migrations.map(\.declared) == ["1.0"])
    }
}
