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
        migrate(toVersion: version, title: title, notes: notes, whatsNew: whatsNew, since: since,
                body: PostgresMigration.body(named: "version \(version) \"\(title)\"", body))
    }
}

/// Turns a body that works in PostgreSQL into a registry's body.
public enum PostgresMigration {
    /// A `MigrationBody` that runs `body` in the transaction of the
    /// ``PostgresMigrationStore`` block running it, in a savepoint.
    ///
    /// ```swift
    /// let body = PostgresMigration.body(named: "version 1.1 \"Pin notes\"") { transaction, _ in
    ///     try transaction.execute("UPDATE note SET pinned = true WHERE starred")
    /// }
    /// ```
    public static func body(named migration: String, _ body: @escaping PostgresMigrationBody) -> MigrationBody {
        { context in try PostgresTransaction.run(migration) { transaction in try body(transaction, context) } }
    }

    /// Whether the current code runs inside a block of a ``PostgresMigrationStore``.
    public static var isInsideBlock: Bool { PostgresTransaction.current != nil }
}
