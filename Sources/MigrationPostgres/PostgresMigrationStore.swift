import Foundation
import MigrationCore
import PostgresNIO

/// A store in a PostgreSQL database shared by a fleet: every instance of a server, on any
/// machine, runs each migration once, and a manifest's `"sql"` (or a body declared with
/// ``MigrationCore/MigrationRegistry/migrate(toVersion:title:notes:whatsNew:since:postgres:)``)
/// commits in one transaction with its record.
///
/// The marks (one row per domain) and the history (one row per record, with the host and
/// process that wrote it) live in two tables of their own, `marks` and `history`, in a schema
/// of their own (`migration_explorer` unless named), created by the first write; the app's own
/// tables are never touched. Each block runs in one transaction that holds the domain's
/// advisory lock: instances that want the same block wait on the lock, in the server, and then
/// find it recorded. A registry run also holds a second advisory lock of the domain, shared,
/// from its plan to its last record, which a reset or set takes exclusively (see
/// `MigrationStore.withoutRuns(onWait:_:)`). Both are session locks on the
/// store's one connection: a killed or cut-off instance's locks end with its connection, so
/// there is no stale lock to repair. A shell command still runs at least once: what it does
/// outside the database cannot roll back.
///
/// ```swift
/// let store = try PostgresMigrationStore(url: "postgres://deploy@db.internal/notes", password: secret)
/// var registry = MigrationRegistry(appName: "Notes")
/// registry.migrate(toVersion: "1.1", title: "Pin notes", postgres: { transaction, _ in
///     try transaction.execute("ALTER TABLE note ADD COLUMN pinned boolean NOT NULL DEFAULT false")
/// })
/// let report = try await MigrationRunner(registry: registry, target: try AppTarget(version: "1.1")).run(store: store)
/// ```
/// - Warning: it is a network store, run from async code: `try await runner.run(store:)`
///   makes every call to the server from a thread of the run's own, so that no thread of the
///   concurrency pool (or an event loop) waits on the network. A block run from synchronous
///   code (the synchronous `runner.run(store:)`, the synchronous `Migrator`
///   calls) is refused, saying so, rather than blocking its thread; so is an asynchronous
///   body, which cannot run inside the block's transaction. Reading the store (`load()`,
///   `runHolders()`) waits on the caller's thread.
public final class PostgresMigrationStore: TransactionalMigrationStore, Sendable {
    /// The server and database the store connects to.
    public let server: PostgresServer
    /// The schema of the store's tables.
    public let schema: String
    /// The name under which this store's records are kept in the schema: one schema holds
    /// several domains.
    public let domain: String
    /// How long the store waits for a lock another process holds (a block's, or a run's for a
    /// reset or set) before giving up with `MigrationStoreError.Problem.busy(_:)`.
    public var lockPatience: LockPatience { waiting.patience }
    /// Called, before waiting, when another process holds the lock of a block this store
    /// wants, or the runs' lock (a reset or set waiting for runs, a run waiting for a reset or
    /// set), with the holders; `nil`: wait without a word. A reset's own
    /// `withoutRuns(onWait:_:)` is told as well.
    public let onWait: (@Sendable ([PostgresLockHolder]) -> Void)?
    package let runLock: RunLock
    private let waiting: AdvisoryLockWait
    private let session: PostgresSession
    private let tables: RecordTables
    private let recordsKey: AdvisoryKey
    private let runsKey: AdvisoryKey

    /// The domain used when none is named.
    public static let defaultDomain = "default"
    /// The schema used when none is named.
    public static let defaultSchema = "migration_explorer"

    /// "PostgreSQL postgres://deploy@db.internal:5432/notes (default)"; the schema is named
    /// when it is not the default one.
    public var location: String {
        let schema = schema == Self.defaultSchema ? "" : ", schema \(schema)"
        return "PostgreSQL \(server) (\(domain)\(schema))"
    }

    /// - Parameters:
    ///   - server: where the database is; the store opens one connection to it, at first use.
    ///   - schema: the schema of the store's tables, created by the first write: a name
    ///     PostgreSQL takes unquoted, the store's own (see ``PostgresSchemaName``).
    ///   - domain: whose records these are; one schema can hold several.
    ///   - lockPatience: how long to wait for a lock another process holds before giving up
    ///     with `MigrationStoreError.Problem.busy(_:)`, naming the holder; by default (an
    ///     app's launch) as long as it takes. The wait stays a wait in the server, bounded by
    ///     PostgreSQL's `lock_timeout` (at most about 24 days).
    ///   - onWait: called before waiting for another process's block, or for the runs' lock
    ///     (a reset or set behind runs, a run behind a reset or set).
    ///
    /// ```swift
    /// // A deploy step that gives up after 30 s when another instance holds the store:
    /// let store = PostgresMigrationStore(server: server, lockPatience: .upTo(.seconds(30)))
    /// let report = try await runner.run(store: store)
    /// if let error = report.saveError, case .busy = error.problem { print(error) }  // …, held by web-1, pid 4121, since …; gave up waiting after 30 s
    /// ```
    public init(server: PostgresServer, schema: PostgresSchemaName = .default, domain: String = defaultDomain,
                lockPatience: LockPatience = .forever, onWait: (@Sendable ([PostgresLockHolder]) -> Void)? = nil) {
        let schema = schema.name
        self.server = server
        self.schema = schema
        self.domain = domain
        self.onWait = onWait
        self.waiting = AdvisoryLockWait(patience: lockPatience)
        self.session = PostgresSession(server: server)
        self.tables = RecordTables(schema: schema, domain: domain)
        self.recordsKey = AdvisoryKey(schema: schema, domain: domain, purpose: "records")
        self.runsKey = AdvisoryKey(schema: schema, domain: domain, purpose: "runs")
        self.runLock = RunLock(across: AdvisoryRunLock(session: session, key: runsKey, waiting: waiting, onWait: onWait))
    }

    /// A store on the database a libpq-style URL names (see ``PostgresServer``).
    /// - Throws: ``PostgresURLError`` for a URL that is not one.
    public convenience init(url: String, password: String? = nil, schema: PostgresSchemaName = .default, domain: String = defaultDomain,
                            lockPatience: LockPatience = .forever, onWait: (@Sendable ([PostgresLockHolder]) -> Void)? = nil) throws(PostgresURLError) {
        self.init(server: try PostgresServer(url: url, password: password), schema: schema, domain: domain, lockPatience: lockPatience, onWait: onWait)
    }

    /// Connects now, if the store is not connected: a server that cannot be reached, a login
    /// it refuses or a missing database are then an error before anything runs.
    ///
    /// ```swift
    /// do { try store.connect() } catch let error as PostgresConnectionError where error.kind == .unreachable {
    ///     print(error)   // cannot connect to PostgreSQL at db:5432, database notes: connection refused; …
    /// }
    /// ```
    /// - Throws: ``PostgresConnectionError``.
    public func connect() throws {
        try session.connect()
    }

    /// Closes the store's connection (which lets its locks go); the next use opens a new one.
    public func close() {
        session.close()
    }

    public func load() throws -> MigrationState {
        try labelled(reading {
            var state = try tables.read(withHistory: true, in: session)
            state.attempts = try tables.readAttempts(in: session)
            return state
        })
    }

    /// The marks alone: one row.
    public func loadMarks() throws -> MigrationState {
        try labelled(reading { try tables.read(withHistory: false, in: session) })
    }

    public func save(_ state: MigrationState) throws {
        try writing { try tables.write(state, in: session) }
    }

    /// Appends a step's records without reading the history.
    public func saveMarks(_ state: MigrationState, appending records: [MigrationRecord]) throws {
        try writing { try tables.writeMarks(state, appending: records, in: session) }
    }

    public func withExclusiveAccess<T>(_ body: () throws -> T) throws -> T {
        try writing(body)
    }

    /// Runs `body` inside one transaction that holds the domain's advisory lock (or the one
    /// this connection is already in): it commits when `body` returns, with the block's record,
    /// and rolls back when it throws. Bodies declared with a connection find the transaction here.
    /// - Throws: ``PostgresSynchronousUseError`` from synchronous code (see the type's warning).
    public func withExclusiveAccess<T>(toBlock block: String, _ body: (_ alreadyRunning: Bool) throws -> T) throws -> T {
        guard OwnThread.mayWait else { throw PostgresSynchronousUseError(location: location) }
        return try session.exclusive {
            let alreadyRunning = !session.runningBlocks.insert(block).inserted
            if alreadyRunning { return try body(true) }
            defer { session.runningBlocks.remove(block) }
            // Called from inside another block's body: the outer transaction holds the domain's
            // lock, which keeps every other instance's blocks out; a lock of its own could not
            // be let go once a failed statement had aborted that transaction.
            if session.depth > 0 { return try body(false) }
            let key = AdvisoryKey(schema: schema, domain: domain, purpose: "block " + block)
            try storeErrors(writing: true) { try takeBlockLock(key) }
            session.blockLocks += 1
            defer {
                _ = try? session.query("SELECT pg_advisory_unlock(\(key.value))")
                session.blockLocks -= 1
            }
            return try body(false)
        }
    }

    /// Runs a block's body and its record in one transaction that holds the domain's advisory
    /// lock (or in the one this connection is already in), after the block's attempt committed
    /// on its own: it commits when `body` returns and rolls back when it throws. Bodies
    /// declared with a connection find the transaction here.
    public func withBlockCommit<T>(_ body: () throws -> T) throws -> T {
        try writing { try PostgresTransaction.$current.withValue(PostgresTransaction(session: session)) { try body() } }
    }

    /// The connection's socket while this process runs a block on it, for a shell command of
    /// the block to inherit: the block's transaction, and the domain's lock with it, then
    /// last as long as the command, even when the runner is killed, so the next run waits for
    /// an orphaned command instead of running its block beside it. `nil` outside blocks.
    package var heldBlockDescriptor: Int32? { session.blockSocket }

    /// Waits while another connection holds the domain's lock, without queueing for it: the
    /// lock is taken shared and let go at once, so every instance of a fleet that waited for
    /// one block goes on together when it ends, reads the records again and finds the block
    /// done (see `MigrationStore.waitWhileAnotherHolds(block:)`). Returns
    /// whether it waited; a connection inside its own block does not wait for itself.
    /// - Throws: `MigrationStoreError.Problem.busy(_:)` when the wait would be
    ///   longer than ``lockPatience``.
    public func waitWhileAnotherHolds(block: String) throws -> Bool {
        try reading {
            guard session.depth == 0, session.runningBlocks.isEmpty else { return false }
            let blockKey = AdvisoryKey(schema: schema, domain: domain, purpose: "block " + block)
            let key = blockKey.value
            // Outside a transaction block each statement is a transaction of its own, which
            // lets the lock go as it ends.
            if try session.query("SELECT pg_try_advisory_xact_lock_shared(\(key))").first?.decode(Bool.self) == true { return false }
            try waiting.wait("SELECT pg_advisory_xact_lock_shared(\(key))", for: blockKey, in: session, telling: onWait)
            return true
        }
    }

    /// Proves, before a run, a reset or a set, that the server can be reached and that this
    /// role may write the store's tables (or create them).
    public func checkWritable() throws {
        let problem: String? = try reading {
            guard try tables.exist(in: session) else {
                let canCreate = try session.query("""
                    SELECT CASE WHEN to_regnamespace(\(schema)) IS NULL THEN has_database_privilege(current_database(), 'CREATE')
                                ELSE has_schema_privilege(\(schema), 'CREATE') END
                    """).first?.decode(Bool.self) ?? false
                return canCreate ? nil : "the role \(server.user) may not create the schema \(schema) or its tables; grant it CREATE on the database (or the schema)"
            }
            let canWrite = try session.query("""
                SELECT has_table_privilege(\(tables.marks), 'INSERT, UPDATE') AND has_table_privilege(\(tables.history), 'INSERT, DELETE')
                """).first?.decode(Bool.self) ?? false
            return canWrite ? nil : "the role \(server.user) may not write \(tables.marks) and \(tables.history)"
        }
        if let problem { throw MigrationStoreError(location: location, problem: .readOnly(problem)) }
    }

    /// The domains the schema holds records for, sorted.
    /// - Throws: `MigrationStoreError` when the database cannot be read.
    public func domains() throws -> [String] {
        try reading { try tables.domains(in: session) }
    }

    /// The processes running a registry run on this store's domain now (on any machine),
    /// without waiting for them: for a plan shown while a run goes on.
    ///
    /// ```swift
    /// for holder in try store.runHolders() { print(holder) }   // web-3, pid 4121, since 2026-11-25 18:02:11 UTC
    /// ```
    /// - Throws: `MigrationStoreError` when the database cannot be read.
    public func runHolders() throws -> [PostgresLockHolder] {
        try reading { try PostgresLockHolder.holders(of: runsKey, in: session) }
    }

    /// Runs `body` on the connection, its errors as the store's.
    private func reading<T>(_ body: () throws -> T) throws -> T {
        try storeErrors(writing: false) { try session.exclusive(body) }
    }

    /// Runs `body` in a transaction holding the domain's advisory lock (or in the transaction
    /// this connection is already in), the tables created first. The lock is the
    /// transaction's: it ends with the commit or the rollback, in the same round trip.
    private func writing<T>(_ body: () throws -> T) throws -> T {
        try storeErrors(writing: true) {
            try session.exclusive {
                if session.depth > 0 { return try body() }
                return try session.inTransaction {
                    try takeRecordsLock()
                    try tables.create(in: session)
                    return try body()
                }
            }
        }
    }

    /// Takes `key`, a block's lock, for the session: held from the block's decision to its
    /// record, and as long as the connection lives (a shell command of the block inherits it,
    /// see `heldBlockDescriptor`); after telling ``onWait`` who holds it when another does,
    /// waiting no longer than ``lockPatience``.
    private func takeBlockLock(_ key: AdvisoryKey) throws {
        if waiting.triesFirst(telling: onWait),
           try session.query("SELECT pg_try_advisory_lock(\(key.value))").first?.decode(Bool.self) == true { return }
        try waiting.wait("SELECT pg_advisory_lock(\(key.value))", for: key, in: session, telling: onWait)
    }

    /// Takes the domain's lock for the current transaction, after telling ``onWait`` who holds
    /// it when another does, waiting no longer than ``lockPatience``.
    private func takeRecordsLock() throws {
        let key = recordsKey.value
        if waiting.triesFirst(telling: onWait),
           try session.query("SELECT pg_try_advisory_xact_lock(\(key))").first?.decode(Bool.self) == true { return }
        try waiting.wait("SELECT pg_advisory_xact_lock(\(key))", for: recordsKey, in: session, telling: onWait)
    }

    /// The driver's and the server's errors as ``MigrationCore/MigrationStoreError``s.
    private func storeErrors<T>(writing: Bool, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as MigrationStoreError {
            throw error
        } catch let error as PostgresSynchronousUseError {
            throw error
        } catch let error as PostgresConnectionError {
            throw MigrationStoreError(location: location, problem: writing ? .unwritable(error.description) : .unreadable(error.description))
        } catch let error as AdvisoryLockBusy {
            throw MigrationStoreError(location: location, problem: .busy(error.description))
        } catch let error as RecordTables.UnreadableRecord {
            throw MigrationStoreError(location: location, problem: .corrupt(error.description))
        } catch let error as PSQLError {
            let message = error.serverMessage
            throw MigrationStoreError(location: location, problem: writing ? .unwritable(message) : .unreadable(message))
        }
    }

    /// `state` with the place each mark is read from, for diagnostics.
    private func labelled(_ state: MigrationState) -> MigrationState {
        var state = state
        for mark in RecordedMark.allCases {
            state.markSources[mark] = "\(server): \(schema).marks.\(mark.rawValue) (domain \(domain))"
        }
        return state
    }
}

extension PostgresMigrationStore: KeepsRunsApart {}

extension PostgresMigrationStore: RecordsAttempts {
    /// The domain's attempts, in their own table (none before the table exists).
    public func loadAttempts() throws -> [MigrationAttempt] {
        try reading { try tables.readAttempts(in: session) }
    }

    /// Replaces the domain's attempts, in a transaction of its own (or this connection's).
    public func saveAttempts(_ attempts: [MigrationAttempt]) throws {
        try writing { try tables.writeAttempts(attempts, in: session) }
    }
}

extension PostgresMigrationStore {
    /// Every call waits for the server: an asynchronous run makes them from a thread of its own.
    public static var waitsOnNetwork: Bool { true }
}

/// A block of a ``PostgresMigrationStore`` was asked for from synchronous code, which would
/// block its thread on the network.
///
/// ```swift
/// let report = try await runner.run(store: store)   // not `try runner.run(store: store)`, which is refused
/// ```
public struct PostgresSynchronousUseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The store, as ``PostgresMigrationStore/location`` names it.
    public let location: String

    public var description: String {
        "\(location) is a network store: its migrations run with `try await runner.run(store:)`, which waits for the server on a thread of its own, not from synchronous code, whose thread (one of the concurrency pool's, perhaps) would wait on the network; nothing was run"
    }
}
