import GRDB
import MigrationCore

/// A migration body that works in the app's database: it runs inside the same transaction
/// that records it, so a crash at any moment leaves both or neither.
public typealias DatabaseMigrationBody = @Sendable (Database, MigrationContext) throws -> Void

extension MigrationRegistry {
    /// Declares a migration, run once when the app reaches `version`, that changes the
    /// database of the ``SQLiteMigrationStore`` it runs with, in the transaction that records
    /// it: exactly once. A body that throws changes nothing and is recorded as failed.
    ///
    /// ```swift
    /// registry.migrate(toVersion: "1.1", title: "Add a pinned flag", database: { db, context in
    ///     try db.execute(sql: "ALTER TABLE note ADD COLUMN pinned BOOLEAN NOT NULL DEFAULT 0")
    ///     context.log("added note.pinned")
    /// })
    /// ```
    /// Run with any other store, the migration fails with ``DatabaseBodyError``.
    public mutating func migrate(
        toVersion version: String, title: String, notes: String? = nil, whatsNew: [String] = [],
        since: String? = nil, database body: @escaping DatabaseMigrationBody
    ) {
        migrate(toVersion: version, title: title, notes: notes, whatsNew: whatsNew, since: since,
                body: DatabaseMigration.body(named: "version \(version) \(title.quotedTitle)", body))
    }

    /// Declares a migration, run once when the app reaches build `build`, that changes the
    /// database of the ``SQLiteMigrationStore`` it runs with, in the transaction that records it.
    public mutating func migrate(
        toBuild build: String, title: String, notes: String? = nil, whatsNew: [String] = [],
        database body: @escaping DatabaseMigrationBody
    ) {
        migrate(toBuild: build, title: title, notes: notes, whatsNew: whatsNew,
                body: DatabaseMigration.body(named: "build \(build) \(title.quotedTitle)", body))
    }
}

/// Turns a body that works in the database into a registry's body.
public enum DatabaseMigration {
    /// A `MigrationBody` that runs `body` in the transaction of the
    /// ``SQLiteMigrationStore`` block running it, in a savepoint: what `body` changed is undone
    /// when it throws. `migration` names it in ``DatabaseBodyError``, thrown with any other store.
    ///
    /// ```swift
    /// let body = DatabaseMigration.body(named: "version 1.1 \"Pin notes\"") { db, _ in
    ///     try db.execute(sql: "UPDATE note SET pinned = 1 WHERE starred")
    /// }
    /// ```
    public static func body(named migration: String, _ body: @escaping DatabaseMigrationBody) -> MigrationBody {
        { context in try BlockTransaction.run(migration) { db in try body(db, context) } }
    }
}
