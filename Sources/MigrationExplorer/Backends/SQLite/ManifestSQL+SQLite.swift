#if SQLite
import MigrationCore
import MigrationManifest
import MigrationSQLite

extension ManifestSQL {
    /// Runs a manifest's SQL, then its command, in the transaction of the
    /// `SQLiteMigrationStore` block that records the migration: when either fails, the SQL's
    /// changes are undone. With any other store the body throws `DatabaseBodyError`.
    ///
    /// ```swift
    /// let manifest = try Manifest.load(path: "manifest.json", sql: ManifestSQL.inSQLiteStore)
    /// try MigrationRunner(registry: manifest.registry, target: try AppTarget(version: manifest.appVersion))
    ///     .run(store: SQLiteMigrationStore(path: "app.sqlite"))
    /// ```
    public static let inSQLiteStore: Runner = { sql, command in
        DatabaseMigration.body(named: sql.migration) { db, context in
            let before = db.totalChangesCount
            try db.execute(sql: sql.statements)
            let changed = db.totalChangesCount - before
            context.log("the SQL changed \(changed) \(changed == 1 ? "row" : "rows")")
            try command(context)
        }
    }
}
#endif
