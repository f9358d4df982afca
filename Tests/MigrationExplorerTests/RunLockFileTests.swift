import Foundation
import Testing

/// The file a run holds against resets (`<store>.run.lock`) never stands in a user's way, and
/// looking at a store never creates it, nor a SQLite database that is not there yet.
@Suite("The run lock file", .serialized)
struct RunLockFileTests {
    static let manifest = #"{ "appVersion": "1.0", "migrations": [ { "version": "1.0", "title": "one", "run": "true" } ] }"#

    /// A folder every user may write, holding the manifest.
    private func sharedFolder() throws -> URL {
        let folder = try makeTemporaryFolder()
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: folder.path)
        try Data(Self.manifest.utf8).write(to: folder.appendingPathComponent("m.json"))
        return folder
    }

    @Test(arguments: [["--store", "state.json"], ["--sqlite", "app.sqlite"]])
    func aRunLockFileAnotherUserLeftDoesNotStopARun(store: [String]) async throws {
        guard OtherUser.isRoot else { return }     // only root can leave a file another user cannot write
        let folder = try sharedFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let lock = folder.appendingPathComponent(store[1] + ".run.lock")
        try Data().write(to: lock)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: lock.path)
        let run = try await OtherUser.run(["run", "--manifest", "m.json"] + store, in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("succeeded"), "\(run.stdout)")
    }

    @Test func planningOnASQLiteDatabaseThatIsNotThereCreatesNothing() async throws {
        let folder = try sharedFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for command in [["plan"], ["run", "--dry-run"]] {
            let result = try await Executable.run(command + ["--manifest", "m.json", "--sqlite", "app.sqlite"], in: folder)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(result.stdout.contains("fresh install"), "\(command): \(result.stdout)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["m.json"])
    }
}
