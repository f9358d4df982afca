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
        migrate(toVersion: version, title: title, notes: notes, whatsNew: whatsNew, since: since, in: DatabaseMigration.self, body)
    }

    /// Declares a migration, run once when the app reaches build `build`, that changes the
    /// database of the ``SQLiteMigrationStore`` it runs with, in the transaction that records it.
    ///
    /// ```swift
    /// registry.migrate(toBuild: "120", title: "Index tags", database: { db, _ in
    ///     try db.execute(sql: "CREATE INDEX note_tag ON note(tag)")
    /// })
    /// ```
    public mutating func migrate(
        toBuild build: String, title: String, notes: String? = nil, whatsNew: [String] = [],
        database body: @escaping DatabaseMigrationBody
    ) {
        migrate(toBuild: build, title: title, notes: notes, whatsNew: whatsNew, in: DatabaseMigration.self, body)
    }
}

/// The SQLite database of a ``SQLiteMigrationStore``, for migrations that work in it: its
/// `MigrationDatabase.body(named:_:)` runs a body in the block's transaction,
/// in a savepoint, and fails with ``DatabaseBodyError`` with any other store.
///
/// ```swift
/// let body = DatabaseMigration.body(named: "version 1.1 \"Pin notes\"") { db, _ in
///     try db.execute(sql: "UPDATE note SET pinned = 1 WHERE starred")
/// }
/// ```
public enum DatabaseMigration: MigrationDatabase {
    /// Runs `body` on the current block's connection, in a savepoint.
    /// - Throws: ``DatabaseBodyError`` outside a block of a ``SQLiteMigrationStore``.
    public static func inBlockTransaction(named migration: String, _ body: (Database) throws -> Void) throws {
        try BlockTransaction.run(migration, body)
    }
}
