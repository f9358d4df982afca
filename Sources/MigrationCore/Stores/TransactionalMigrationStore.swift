/// A store whose block exclusion is one database transaction that commits a block's changes
/// together with its record, so that a crash leaves both or neither (SQLite, PostgreSQL).
///
/// It implements ``MigrationStore/withBlockCommit(_:)`` as that transaction: a run then throws
/// a record that cannot be saved out of it, so the transaction rolls the block's changes back
/// instead of keeping them without their record; and since the transaction belongs to the
/// thread that opened it, a block with an asynchronous body is refused rather than run outside
/// it. What the run writes before the body (the block's start, see ``RecordsAttempts``) commits
/// on its own first.
///
/// ```swift
/// final class DatabaseStore: TransactionalMigrationStore {
///     // load, save, withExclusiveAccess(_:) as for any store, and:
///     func withBlockCommit<T>(_ body: () throws -> T) throws -> T {
///         try database.inTransaction { try body() }   // commits when body returns
///     }
/// }
/// ```
public protocol TransactionalMigrationStore: MigrationStore {}

extension TransactionalMigrationStore {
    /// A block commits with its record.
    public static var blockCommit: BlockCommit { .recordInBlockTransaction }
}

/// How a store keeps a block and its record together (``MigrationStore/blockCommit``).
///
/// ```swift
/// SQLiteMigrationStore.blockCommit   // .recordInBlockTransaction
/// ```
public enum BlockCommit: Sendable {
    /// The record is saved after the block: a record that cannot be saved leaves the block run
    /// but unrecorded, and it runs again next launch (at least once).
    case recordAfterBlock
    /// The block's changes and its record commit in one transaction (exactly once): a record
    /// that cannot be saved rolls the block back.
    case recordInBlockTransaction
}
