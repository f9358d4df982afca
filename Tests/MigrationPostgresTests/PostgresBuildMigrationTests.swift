import Foundation
import MigrationCore
import MigrationPostgres
import Testing

/// A PostgreSQL migration declared on the build track, and the name a failure gives it: the
/// same helper as SQLite's.
@Suite struct PostgresBuildMigrationTests {
    @Test func aBuildMigrationChangesTheDatabaseWithItsRecord() async throws {
        let database = try TestDatabase()
        var registry = MigrationRegistry(appName: "Notes")
        registry.migrate(toBuild: "12", title: "Create tags", postgres: { transaction, _ in
            try transaction.execute("CREATE TABLE tag (name text NOT NULL); INSERT INTO tag VALUES ('inbox')")
        })
        let report = try await MigrationRunner(registry: registry, target: try AppTarget(version: "1.0", build: "12"))
            .run(store: try database.store())
        #expect(report.succeeded, "\(failureText(report))")
        #expect(try database.count("tag") == 1)
        #expect(try database.store().load().lastMigratedBuild == "12")
    }

    @Test func aTitleWithQuotesIsNamedWithoutNestingThem() throws {
        var registry = MigrationRegistry()
        registry.migrate(toVersion: "1.0", title: "Rename \"body\"", postgres: { _, _ in Issue.record("ran without a database") })
        let store = InMemoryMigrationStore()
        let report = try MigrationRunner(registry: registry, target: try AppTarget(version: "1.0")).run(store: store)
        #expect(report.failure?.outcome == .failed(
            "version 1.0 “Rename \"body\"” works in PostgreSQL and runs only with a PostgresMigrationStore as its store; nothing was run"))
    }
}
