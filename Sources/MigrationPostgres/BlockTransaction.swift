import Foundation
import MigrationCore
import PostgresNIO

/// The transaction a ``PostgresMigrationStore`` runs the current block in: where a body
/// declared with a connection (``PostgresMigration``) does its work, before the block's
/// record is written in the same transaction.
///
/// ```swift
/// registry.migrate(toVersion: "1.1", title: "Pin notes", postgres: { transaction, _ in
///     try transaction.execute("ALTER TABLE note ADD COLUMN pinned boolean NOT NULL DEFAULT false")
/// })
/// ```
public struct PostgresTransaction: Sendable {
    let session: PostgresSession

    @TaskLocal static var current: PostgresTransaction?

    /// Runs one or more SQL statements, separated by `;`, in the block's transaction.
    ///
    /// ```swift
    /// try transaction.execute("ALTER TABLE note ADD COLUMN pinned boolean; UPDATE note SET pinned = starred")
    /// ```
    /// - Throws: the server's error; the block's transaction then undoes what they did.
    public func execute(_ statements: String) throws {
        try session.query(PostgresQuery(unsafeSQL: Self.anonymousBlock(statements)))
    }

    /// Runs one statement with parameters and returns its rows.
    ///
    /// ```swift
    /// let rows = try transaction.query("SELECT count(*) FROM note WHERE pinned = \(true)")
    /// ```
    @discardableResult
    public func query(_ query: PostgresQuery) throws -> [PostgresRow] {
        try session.query(query)
    }

    /// `statements` as one statement: the driver sends each statement on its own (with
    /// parameters), which admits one command only; a `DO` block's `EXECUTE` admits several,
    /// and runs them in order in the current transaction. Its quote is a tag the statements do
    /// not contain.
    static func anonymousBlock(_ statements: String) -> String {
        var tag = "migration_sql"
        while statements.contains("$\(tag)$") || statements.contains("$\(tag)_do$") { tag += "_" }
        return "DO $\(tag)_do$ BEGIN EXECUTE $\(tag)$\(statements)$\(tag)$; END $\(tag)_do$"
    }

    /// Runs `body` on the current block's transaction, in a savepoint: when `body` throws, what
    /// it changed is undone (the block's record of the failure is still written).
    /// - Throws: ``PostgresBodyError`` outside a block of a ``PostgresMigrationStore``.
    static func run(_ migration: String, _ body: (PostgresTransaction) throws -> Void) throws {
        guard let transaction = current else { throw PostgresBodyError(migration: migration) }
        try transaction.session.exclusive {
            try transaction.session.query("SAVEPOINT migration_body")
            do {
                try body(transaction)
                try transaction.session.query("RELEASE SAVEPOINT migration_body")
            } catch let error as PostgresConnectionError {
                throw error
            } catch {
                try transaction.session.query("ROLLBACK TO SAVEPOINT migration_body")
                throw PostgresStatementError(error)
            }
        }
    }
}

/// A statement of a migration failed: the server's message, without the driver's dump.
///
/// ```swift
/// do { try transaction.execute("SELECT * FROM nowhere") } catch let error as PostgresStatementError {
///     print(error)   // relation "nowhere" does not exist
/// }
/// ```
public struct PostgresStatementError: Error, Sendable, CustomStringConvertible {
    /// The server's message: `relation "note" does not exist`.
    public let description: String

    init(_ error: any Error) {
        description = (error as? PSQLError)?.serverMessage ?? String(describing: error)
    }
}

/// A migration that works in PostgreSQL ran with a store that is not a
/// ``PostgresMigrationStore``: it has no transaction to work in, so it did nothing.
///
/// ```swift
/// let report = try runner.run(store: InMemoryMigrationStore())
/// report.failure?.outcome   // .failed("1.1 Pin notes works in PostgreSQL and runs only with a PostgresMigrationStore …")
/// ```
public struct PostgresBodyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The migration, as reports name it.
    public let migration: String

    public var description: String {
        "\(migration) works in PostgreSQL and runs only with a PostgresMigrationStore as its store; nothing was run"
    }
}
