import MigrationCore

/// A migration body that works in the store's PostgreSQL database, in the transaction that
/// records it.
public typealias PostgresMigrationBody = @Sendable (PostgresTransaction, MigrationContext) throws -> Void

extension MigrationRegistry {
    /// Declares a migration, run once when the app reaches `version`, that changes the
    /// database of the ``PostgresMigrationStore`` it runs with, in the transaction that records
    /// it: exactly once across every machine on that database.
    ///
    /// ```swift
    /// registry.migrate(toVersion: "1.1", title: "Pin notes", postgres: { transaction, context in
    ///     try transaction.execute("ALTER TABLE note ADD COLUMN pinned boolean NOT NULL DEFAULT false")
    /// })
    /// ```
    /// Run with any other store, the migration fails with ``PostgresBodyError``.
    public mutating func migrate(
        toVersion version: String, title: String, notes: String? = nil, whatsNew: [String] = [],
        since: String? = nil, postgres body: @escaping PostgresMigrationBody
    ) {
        migrate(toVersion: version, title: title, notes: notes, whatsNew: whatsNew, since: since, in: PostgresMigration.self, body)
    }

    /// Declares a migration, run once when the app reaches build `build`, that changes the
    /// database of the ``PostgresMigrationStore`` it runs with, in the transaction that records it.
    ///
    /// ```swift
    /// registry.migrate(toBuild: "120", title: "Index tags", postgres: { transaction, _ in
    ///     try transaction.execute("CREATE INDEX note_tag ON note (tag)")
    /// })
    /// ```
    public mutating func migrate(
        toBuild build: String, title: String, notes: String? = nil, whatsNew: [String] = [],
        postgres body: @escaping PostgresMigrationBody
    ) {
        migrate(toBuild: build, title: title, notes: notes, whatsNew: whatsNew, in: PostgresMigration.self, body)
    }
}

/// The PostgreSQL database of a ``PostgresMigrationStore``, for migrations that work in it: its
/// `MigrationDatabase.body(named:_:)` runs a body in the block's transaction,
/// in a savepoint, and fails with ``PostgresBodyError`` with any other store.
///
/// ```swift
/// let body = PostgresMigration.body(named: "version 1.1 \"Pin notes\"") { transaction, _ in
///     try transaction.execute("UPDATE note SET pinned = true WHERE starred")
/// }
/// ```
public enum PostgresMigration: MigrationDatabase {
    /// Runs `body` on the current block's transaction, in a savepoint.
    /// - Throws: ``PostgresBodyError`` outside a block of a ``PostgresMigrationStore``.
    public static func inBlockTransaction(named migration: String, _ body: (PostgresTransaction) throws -> Void) throws {
        try PostgresTransaction.run(migration, body)
    }

    /// Whether the current code runs inside a block of a ``PostgresMigrationStore``.
    public static var isInsideBlock: Bool { PostgresTransaction.current != nil }
}
