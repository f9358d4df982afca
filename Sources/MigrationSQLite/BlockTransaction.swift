import GRDB
import MigrationCore

/// The transaction a ``SQLiteMigrationStore`` runs the current block in, on this thread: where
/// a body declared with a database does its work.
struct BlockTransaction: Sendable {
    let connection: SharedConnection

    @TaskLocal static var current: BlockTransaction?

    /// Runs `body` on the current block's connection, in a savepoint: when `body` throws, what
    /// it changed is undone (the block's record of the failure is still written).
    /// - Throws: ``DatabaseBodyError`` outside a block of a ``SQLiteMigrationStore``.
    static func run(_ label: String, _ body: (Database) throws -> Void) throws {
        guard let transaction = current else { throw DatabaseBodyError(migration: label) }
        try transaction.connection.queue().unsafeReentrantWrite { db in
            try db.inSavepoint {
                try body(db)
                return .commit
            }
        }
    }
}

/// A migration that works in a database ran with a store that is not a
/// ``SQLiteMigrationStore``: it has no database to work in, so it did nothing.
///
/// ```swift
/// let report = try runner.run(store: InMemoryMigrationStore())
/// report.failure?.outcome   // failed: version 1.1 "Pin notes" works in a SQLite database and runs only with …
/// ```
public struct DatabaseBodyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The migration, as reports name it.
    public let migration: String

    public var description: String {
        "\(migration) works in a SQLite database and runs only with a SQLiteMigrationStore on that database as its store; nothing was run"
    }
}
