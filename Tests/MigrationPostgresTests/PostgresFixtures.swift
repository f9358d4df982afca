import Foundation
import MigrationCore
import MigrationPostgres
import ThrowawayPostgresServer

/// A database of its own on the test process's one throwaway server, for one test.
struct TestDatabase {
    let server: ThrowawayPostgres
    let url: String
    var name: String { String(url.split(separator: "/").last ?? "") }

    init() throws {
        server = try ThrowawayPostgres.shared()
        url = try server.createDatabase()
    }

    func store(domain: String = PostgresMigrationStore.defaultDomain, schema: String = PostgresMigrationStore.defaultSchema,
               onWait: (@Sendable ([PostgresLockHolder]) -> Void)? = nil) throws -> PostgresMigrationStore {
        try PostgresMigrationStore(url: url, schema: try PostgresSchemaName(schema), domain: domain, onWait: onWait)
    }

    /// The answer of `sql` in this database, as the superuser sees it.
    func answer(_ sql: String) throws -> String { try server.psql(sql, database: name) }

    /// The number of rows of `table`; `nil` when there is no such table.
    func count(_ table: String) throws -> Int? {
        guard try answer("SELECT to_regclass('\(table)') IS NOT NULL") == "t" else { return nil }
        return Int(try answer("SELECT count(*) FROM \(table)"))
    }
}

/// Migrations 1.0 (creates `note`) and 1.1, 1.2 (each inserts a row naming its version), in SQL;
/// the one at `sleeping` then sleeps 300 s, longer than any deadline of a test, which ends it.
func noteRegistry(failingAt failing: String? = nil, sleepingAt sleeping: String? = nil) -> MigrationRegistry {
    var registry = MigrationRegistry(appName: "Notes")
    registry.migrate(toVersion: "1.0", title: "Create notes", postgres: { transaction, _ in
        try transaction.execute("CREATE TABLE note (version text NOT NULL); CREATE INDEX note_version ON note (version)")
    })
    for version in ["1.1", "1.2"] {
        registry.migrate(toVersion: version, title: "Row \(version)", postgres: { transaction, _ in
            var sql = "INSERT INTO note VALUES ('\(version)');"
            if version == sleeping { sql += " SELECT pg_sleep(300);" }
            if version == failing { sql += " SELECT 1 / 0;" }
            try transaction.execute(sql)
        })
    }
    return registry
}

func runner(_ registry: MigrationRegistry = noteRegistry(), to version: String = "1.2") throws -> MigrationRunner {
    MigrationRunner(registry: registry, target: try AppTarget(version: version))
}

/// The failed step's outcome in words; "none" when nothing failed.
func failureText(_ report: RunReport) -> String {
    report.failure.map { "\($0.outcome)" } ?? "none"
}
