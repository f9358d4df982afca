// On Linux the SQLite store holds the database file itself; Apple's systems keep <database>.run.lock.
#if os(Linux)
import Foundation
import GRDB
import MigrationCore
import MigrationSQLite
import Testing

/// The SQLite store keeps everything in the app's database: its runs, resets and sets leave no
/// file beside it but SQLite's own journal files.
@Suite struct SQLiteSideFileTests {
    /// What SQLite itself may keep beside a database.
    static let sqliteOwnSuffixes = ["", "-wal", "-shm", "-journal"]

    /// The files in `folder` that are neither the database `name` nor SQLite's own beside it.
    private func otherFiles(in folder: URL, besides name: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { file in
            !Self.sqliteOwnSuffixes.contains { file == name + $0 }
        }.sorted()
    }

    private func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func aRunAResetAndASetOfASQLiteStoreLeaveNoFileBesideTheDatabaseButSQLitesOwn() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-side-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = SQLiteMigrationStore(path: folder.appendingPathComponent("app.sqlite").path)
        var registry = MigrationRegistry(appName: "Notes")
        registry.migrate(toVersion: "1.0", title: "Create notes", database: { db, _ in
            try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY)")
        })
        registry.migrate(toVersion: "1.1", title: "Warm a cache") { _ in }
        let report = try MigrationRunner(registry: registry, target: try AppTarget(version: "1.1")).run(store: store)
        #expect(report.succeeded)
        // Created by the run's lock, with the mode SQLite gives a database it creates.
        let bySQLite = folder.appendingPathComponent("by-sqlite.sqlite").path
        try DatabaseQueue(path: bySQLite).write { db in try db.execute(sql: "CREATE TABLE t (x)") }
        #expect(try mode(store.path) == mode(bySQLite))
        try FileManager.default.removeItem(atPath: bySQLite)
        var others = try otherFiles(in: folder, besides: "app.sqlite")
        #expect(others == [], "after the run: \(others)")

        try store.withoutRuns { try store.update { $0.lastMigratedVersion = "1.0" } }
        others = try otherFiles(in: folder, besides: "app.sqlite")
        #expect(others == [], "after a set: \(others)")
        Migrator(appVersion: "1.1", store: store).reset()
        #expect(try store.load().lastMigratedVersion == nil)
        others = try otherFiles(in: folder, besides: "app.sqlite")
        #expect(others == [], "after a reset: \(others)")
    }
}
#endif
