import Foundation
import GRDB
import MigrationCore
import MigrationSQLite
import Testing

/// A SQLite migration declared on the build track commits its change with its record.
@Suite struct SQLiteBuildMigrationTests {
    @Test func aBuildMigrationChangesTheDatabaseWithItsRecord() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-build-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("app.sqlite").path
        var registry = MigrationRegistry()
        registry.migrate(toBuild: "12", title: "Create tags", database: { db, _ in
            try db.execute(sql: "CREATE TABLE tag (name TEXT NOT NULL); INSERT INTO tag VALUES ('inbox')")
        })
        let store = SQLiteMigrationStore(path: path)
        let report = try MigrationRunner(registry: registry, target: try AppTarget(version: "1.0", build: "12")).run(store: store)
        #expect(report.succeeded)
        #expect(try DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM tag") } == 1)
        #expect(try store.load().lastMigratedBuild == "12")
    }
}
