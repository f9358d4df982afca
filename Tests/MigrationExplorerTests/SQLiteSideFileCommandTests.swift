// On Linux the SQLite store holds the database file itself; Apple's systems keep <database>.run.lock.
#if os(Linux)
import Foundation
import MigrationTestSupport
import Testing

/// `run`, `reset` and `set --sqlite` keep everything in the database: no file beside it but
/// SQLite's own, and a reset that finds another process's run going on names that process.
@Suite("SQLite without a side file")
struct SQLiteSideFileCommandTests {
    /// Two migrations; the first says it started, then waits for the file `go`.
    private func folder() throws -> URL {
        let folder = try makeTemporaryFolder()
        let first = "touch started; while [ ! -e go ]; do sleep 0.05; done"
        try folder.appendingPathComponent("manifest.json").write("""
            { "appVersion": "1.0", "migrations": [
              { "version": "0.1", "title": "Import notes", "run": "\(first)" },
              { "version": "0.2", "title": "Index notes", "sql": "CREATE TABLE note_index (id INTEGER PRIMARY KEY)" } ] }
            """)
        return folder
    }

    /// The files in `folder` other than the manifest, the gate files, the database and SQLite's
    /// own beside it (`-wal`, `-shm`, `-journal`).
    private func otherFiles(in folder: URL) throws -> [String] {
        let expected = ["manifest.json", "started", "go"] + ["", "-wal", "-shm", "-journal"].map { "app.sqlite" + $0 }
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !expected.contains($0) }.sorted()
    }

    private let sqlite = ["--sqlite", "app.sqlite"]

    @Test func runResetAndSetLeaveNoFileBesideTheDatabaseButSQLitesOwn() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try folder.appendingPathComponent("go").write("")
        for command in [["run", "--manifest", "manifest.json"], ["reset"], ["set", "--manifest", "manifest.json", "--version", "0.1"]] {
            let result = try await Executable.run(command + sqlite, in: folder)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            let others = try otherFiles(in: folder)
            #expect(others == [], "after \(command[0]): \(others)")
        }
    }

    @Test func aResetThatWillNotWaitForAnotherProcesssRunNamesItAndForgetsNothing() async throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Something recorded, so that a reset has something to wait for.
        #expect(try await Executable.run(["run", "--manifest", "manifest.json", "--to", "0.0.1"] + sqlite, in: folder).status == 0)
        let run = try await Executable.start(["run", "--manifest", "manifest.json"] + sqlite, in: folder)
        let pid = run.pid
        #expect(await waitUntil { FileManager.default.fileExists(atPath: folder.appendingPathComponent("started").path) }, "the run never started its step")

        let reset = try await Executable.run(["reset", "--no-wait"] + sqlite, in: folder)
        #expect(reset.status == 75, "\(reset.stdout)\(reset.stderr)")
        #expect(reset.stderr.contains("held by pid \(pid) (`migration-explorer run`, since "), "\(reset.stderr)")
        #expect(reset.stderr.contains("did not wait"), "\(reset.stderr)")
        try folder.appendingPathComponent("go").write("")
        let ran = await run.finish()
        #expect(ran.status == 0, "\(ran.stderr)")
        let plan = try await Executable.run(["plan", "--manifest", "manifest.json", "--json"] + sqlite, in: folder).json()
        #expect(plan["from"] as? String == "0.2", "\(plan)")
        let others = try otherFiles(in: folder)
        #expect(others == [], "\(others)")
    }
}
#endif
