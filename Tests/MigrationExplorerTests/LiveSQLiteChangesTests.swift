#if SQLite
import Foundation
import GRDB
import MigrationExplorer
import MigrationSQLite
import MigrationTestSupport
import Testing

/// Commits to an SQLite store by another process (the built binary's `set` and `run`) are
/// heard; a read that changes nothing is not.
@Suite struct LiveSQLiteChangesTests {
    private func manifest(in folder: URL) throws {
        let manifest = #"{"app": "Rows", "appVersion": "2", "migrations": [{"version": "1", "title": "Rows", "sql": "CREATE TABLE row (version TEXT)"}, {"version": "2", "title": "Row 2", "sql": "INSERT INTO row VALUES ('2')"}]}"#
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("rows.json"))
    }

    @Test(arguments: [["set", "--version", "1", "--sqlite", "app.sqlite"], ["run", "--manifest", "rows.json", "--sqlite", "app.sqlite"]])
    func aCommitByAnotherProcessIsHeard(_ arguments: [String]) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try manifest(in: folder)
        let database = folder.appendingPathComponent("app.sqlite")
        try #require(await Executable.run(["set", "--version", "0.5", "--sqlite", database.path]).status == 0)
        let recorder = ChangeRecorder(try SQLiteChanges(database: database).changes())
        defer { recorder.stop() }

        let result = try await Executable.run(arguments, in: folder)
        try #require(result.status == 0, "\(result.stderr)")

        #expect(await waitUntil(timeout: 10) { recorder.count > 0 })
    }

    @Test func aReadByAnotherProcessIsNotHeard() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("app.sqlite")
        try #require(await Executable.run(["set", "--version", "1", "--sqlite", database.path]).status == 0)
        // Each change heard, with the version the database records when it is heard.
        let recorder = ChangeRecorder(try SQLiteChanges(database: database).changes().map { _ in
            (try? SQLiteMigrationStore(path: database.path).load().lastMigratedVersion) ?? "unreadable"
        })
        defer { recorder.stop() }

        try #require(await Executable.run(["plan", "--sqlite", database.path]).status == 0)
        // Shown by what comes next, not by a pause: the watch reports in order, so once the
        // commit after the read is heard, anything the read caused would have come before it.
        try #require(await Executable.run(["set", "--version", "2", "--sqlite", database.path]).status == 0)

        #expect(await waitUntil(timeout: 10) { recorder.events.contains("2") }, "the commit was not heard: \(recorder.events)")
        #expect(recorder.events == ["2"], "the read was heard as well as the commit: \(recorder.events)")
    }
}
#endif
