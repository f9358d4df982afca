#if PostgreSQL
import MigrationCore
import MigrationManifest
import MigrationPostgres

extension ManifestSQL {
    /// Runs a manifest's SQL, then its command, in the transaction of the
    /// `PostgresMigrationStore` block that records the migration: when either fails, the SQL's
    /// changes are undone. With any other store the body throws.
    ///
    /// ```swift
    /// let manifest = try Manifest.load(path: "manifest.json", sql: ManifestSQL.inPostgresStore)
    /// ```
    public static let inPostgresStore: Runner = { sql, command in
        PostgresMigration.body(named: sql.migration) { transaction, context in
            try transaction.execute(sql.statements)
            context.log("the SQL ran")
            try command(context)
        }
    }
}
#endif
