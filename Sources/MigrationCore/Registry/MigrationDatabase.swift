/// What a database store offers the migrations that work in its database: the transaction of
/// the block being run, in which a migration's changes commit with its record. SQLite's
/// `DatabaseMigration` and PostgreSQL's `PostgresMigration` are the package's two; a body
/// declared for one (`database:`, `postgres:`) is made by ``body(named:_:)``.
///
/// ```swift
/// enum KeyValueMigration: MigrationDatabase {
///     static func inBlockTransaction(named migration: String, _ body: (KeyValueTransaction) throws -> Void) throws {
///         guard let transaction = KeyValueTransaction.current else { throw NotInABlock(migration: migration) }
///         try transaction.savepoint { try body(transaction) }
///     }
/// }
/// registry.migrate(toBuild: "12", title: "Index tags", in: KeyValueMigration.self) { transaction, _ in
///     try transaction.set("tags", "indexed")
/// }
/// ```
public protocol MigrationDatabase: SendableMetatype {
    /// What a body works with: GRDB's `Database`, a `PostgresTransaction`.
    associatedtype Connection

    /// Runs `body` in the transaction of the block the store is running on this thread, so
    /// that what it changes commits with the block's record, or is undone when it throws.
    /// - Throws: an error naming `migration` when no block of the store is running (the
    ///   migration was run with another store), or what `body` threw.
    static func inBlockTransaction(named migration: String, _ body: (Connection) throws -> Void) throws
}

extension MigrationDatabase {
    /// A ``MigrationBody`` that runs `body` in the block's transaction; `migration` names it in
    /// the error a run with another store fails with.
    ///
    /// ```swift
    /// let body = DatabaseMigration.body(named: "version 1.1 \"Pin notes\"") { db, _ in
    ///     try db.execute(sql: "UPDATE note SET pinned = 1 WHERE starred")
    /// }
    /// ```
    public static func body(
        named migration: String, _ body: @escaping @Sendable (Connection, MigrationContext) throws -> Void
    ) -> MigrationBody {
        { context in try inBlockTransaction(named: migration) { connection in try body(connection, context) } }
    }
}

extension MigrationRegistry {
    /// Declares a migration, run once when the app reaches `version`, whose body works in the
    /// database of `database`'s store, in the transaction that records it. Run with any other
    /// store, it fails and changes nothing.
    ///
    /// ```swift
    /// registry.migrate(toVersion: "1.1", title: "Pin notes", in: PostgresMigration.self) { transaction, _ in
    ///     try transaction.execute("ALTER TABLE note ADD COLUMN pinned boolean NOT NULL DEFAULT false")
    /// }
    /// ```
    public mutating func migrate<Database: MigrationDatabase>(
        toVersion version: String, title: String, notes: String? = nil, whatsNew: [String] = [], since: String? = nil,
        in database: Database.Type, _ body: @escaping @Sendable (Database.Connection, MigrationContext) throws -> Void
    ) {
        migrate(toVersion: version, title: title, notes: notes, whatsNew: whatsNew, since: since,
                body: database.body(named: "version \(version) \(title.quotedTitle)", body))
    }

    /// Declares a migration, run once when the app reaches build `build`, whose body works in
    /// the database of `database`'s store, in the transaction that records it.
    ///
    /// ```swift
    /// registry.migrate(toBuild: "120", title: "Index tags", in: DatabaseMigration.self) { db, _ in
    ///     try db.execute(sql: "CREATE INDEX note_tag ON note(tag)")
    /// }
    /// ```
    public mutating func migrate<Database: MigrationDatabase>(
        toBuild build: String, title: String, notes: String? = nil, whatsNew: [String] = [],
        in database: Database.Type, _ body: @escaping @Sendable (Database.Connection, MigrationContext) throws -> Void
    ) {
        migrate(toBuild: build, title: title, notes: notes, whatsNew: whatsNew,
                body: database.body(named: "build \(build) \(title.quotedTitle)", body))
    }
}
