import Foundation
import GRDB
import GRDBSQLite
import MigrationCore

/// A store in the app's own SQLite database: a block's changes to that database commit in the
/// same transaction as its record, so a crash at any moment leaves both or neither.
///
/// The marks (one row per domain), the history and the migrations' starts live in tables of
/// their own (`migration_explorer_marks`, `migration_explorer_history`,
/// `migration_explorer_attempts`), created by the first write. The database is put in WAL
/// mode. A block is held across processes by a byte lock on the database file that its shell
/// command inherits (so a command of a killed runner is waited for); it decides and records
/// its start in one `BEGIN IMMEDIATE` transaction, then runs and records in another, under
/// SQLite's own write lock, so threads and processes on one database never run a block twice.
/// A registry run also holds the database file itself (a
/// shared `flock`, on Linux; `<database>.run.lock` on Apple's systems) from its plan to its last
/// step, which a reset or set waits for (see `MigrationStore.withoutRuns(onWait:_:)`):
/// the store adds no file beside the database. A body declared with
/// ``MigrationCore/MigrationRegistry/migrate(toVersion:title:notes:whatsNew:since:database:)`` works
/// in that transaction; any other body (a shell command, code that writes elsewhere) still runs
/// at least once, since what it does outside the database cannot roll back.
///
/// A file that is not a SQLite database, or that has tables of these names with other columns,
/// is an error that leaves it untouched.
///
/// ```swift
/// let store = SQLiteMigrationStore(path: "/var/lib/notes/notes.sqlite")
/// var registry = MigrationRegistry(appName: "Notes")
/// registry.migrate(toVersion: "1.1", title: "Add a pinned flag", database: { db, _ in
///     try db.execute(sql: "ALTER TABLE note ADD COLUMN pinned BOOLEAN NOT NULL DEFAULT 0")
/// })
/// let report = try MigrationRunner(registry: registry, target: try AppTarget(version: "1.1")).run(store: store)
/// ```
/// - Warning: a block holds the database's write lock while its body runs: a body must not wait
///   for another thread or process that writes to the same database, or both wait until the
///   lock patience ends one of them (as long as it takes, by default).
public final class SQLiteMigrationStore: TransactionalMigrationStore {
    /// The database file as given.
    public let path: String
    /// The name under which this store's records are kept: several apps or tools may share
    /// one database, each with its own domain.
    public let domain: String
    /// How long the store waits for another connection's transaction (SQLite's write lock), or
    /// for a reset, another process's runs, before it gives up with
    /// `MigrationStoreError.Problem.busy(_:)`.
    public var lockPatience: LockPatience { waiting.patience }
    /// ``lockPatience``, and whom a wait for another process (a block, or the runs for a reset) is told.
    package let waiting: LockWaiting.Policy
    private let connection: SharedConnection

    /// "SQLite notes.sqlite (default)".
    public var location: String { "SQLite \(path) (\(domain))" }

    /// The domain used when none is named.
    public static let defaultDomain = "default"

    /// A store in the database at `path`, under `domain`.
    ///
    /// ```swift
    /// let store = SQLiteMigrationStore(path: databasePath, domain: "sync", lockPatience: .upTo(.seconds(10)))
    /// ```
    /// - Parameters:
    ///   - path: the app's database; created empty when it does not exist.
    ///   - domain: whose records these are; one database can hold several.
    ///   - lockPatience: how long to wait for another connection's transaction (SQLite's busy
    ///     timeout, set for each of this store's transactions, so stores on one file in a
    ///     process, which share one connection, each wait as they were told), or for a reset,
    ///     another process's runs; then give up with `MigrationStoreError.Problem.busy(_:)`.
    public convenience init(path: String, domain: String = SQLiteMigrationStore.defaultDomain, lockPatience: LockPatience = .forever) {
        self.init(path: path, domain: domain, waiting: LockWaiting.Policy(patience: lockPatience))
    }

    /// A store in the database at `path` that waits for another process as `waiting` says,
    /// and tells it.
    package init(path: String, domain: String = SQLiteMigrationStore.defaultDomain, waiting: LockWaiting.Policy) {
        self.path = path
        self.domain = domain
        self.waiting = waiting
        self.connection = SharedConnection.to(path)
    }

    /// The records; a fresh install when the database does not exist yet, which reading does
    /// not create (so a plan on a folder this user cannot write still shows).
    public func load() throws -> MigrationState {
        guard databaseExists else { return labelled(.freshInstall) }
        return try labelled(read { db in try RecordTables.read(domain, withHistory: true, in: db) })
    }

    /// The marks alone: one row.
    public func loadMarks() throws -> MigrationState {
        guard databaseExists else { return labelled(.freshInstall) }
        return try labelled(read { db in try RecordTables.read(domain, withHistory: false, in: db) })
    }

    /// Whether there is a file at the database's path; always for a database SQLite keeps in
    /// memory or in a temporary file (`:memory:`, an empty path, a `file:` URI).
    fileprivate var databaseExists: Bool {
        path.isEmpty || path == ":memory:" || path.hasPrefix("file:") || FileManager.default.fileExists(atPath: path)
    }

    public func save(_ state: MigrationState) throws {
        try write { db in try RecordTables.write(state, of: domain, in: db) }
    }

    /// Appends a step's records without reading the history (`RecordTables`): a step costs the
    /// same however long the history is.
    public func saveMarks(_ state: MigrationState, appending records: [MigrationRecord]) throws {
        try write { db in try RecordTables.writeMarks(state, of: domain, appending: records, in: db) }
    }

    public func withExclusiveAccess<T>(_ body: () throws -> T) throws -> T {
        try write { _ in try body() }
    }

    /// Runs `body` holding `block`: across processes by a lock that a shell command of the
    /// block inherits (`heldBlockDescriptor`), so a command orphaned by a killed runner is
    /// waited for, never run beside; in this process on the store's one connection, which no
    /// other thread uses meanwhile. `body` writes the block's start in a transaction of its
    /// own, then its body and record in ``withBlockCommit(_:)``.
    public func withExclusiveAccess<T>(toBlock block: String, _ body: (_ alreadyRunning: Bool) throws -> T) throws -> T {
        try heldAcrossProcesses(block) {
            // The connection stays this thread's from the block's decision to its record: the
            // attempt's commit and the block's transaction (``withBlockCommit(_:)``).
            try access { _ in try connection.running(block, body) }
        }
    }

    /// Runs a block's body and its record in one `BEGIN IMMEDIATE` transaction (or the one
    /// this thread is already in), after the block's attempt committed on its own: it commits
    /// when `body` returns and rolls back when it throws. Bodies declared with a database find
    /// the transaction's connection here.
    public func withBlockCommit<T>(_ body: () throws -> T) throws -> T {
        try write { _ in try BlockTransaction.$current.withValue(BlockTransaction(connection: connection)) { try body() } }
    }

    /// The descriptor that holds the blocks this process is inside, for a shell command of a
    /// block to inherit (its lock then lasts as long as the command); `nil` outside blocks.
    package var heldBlockDescriptor: Int32? { connection.blockLock.heldDescriptor }

    /// Runs `body` holding `block` across processes, for a database kept in a file. A block
    /// called from inside another block's body takes no such lock: the outer block's
    /// transaction holds SQLite's write lock, which keeps every other process's blocks out
    /// (and waiting for a lock there could wait for a process that waits for that write lock).
    private func heldAcrossProcesses<T>(_ block: String, _ body: () throws -> T) throws -> T {
        guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:"), BlockTransaction.current == nil else { return try body() }
        return try connection.blockLock.withLock(block, in: domain, waiting: waiting, location: location, body)
    }

    /// Proves, inside a block's transaction before its body runs, that this connection may
    /// write the database: SQLite opens a file it may not write read-only, without a word,
    /// and only the record would then fail, after a body (a shell command) had run.
    public func prepareToWrite() throws {
        try access { db in
            guard sqlite3_db_readonly(db.sqliteConnection, "main") == 1 else { return }
            let reason = WriteAccess.problem(writing: path, what: "the database") ?? "SQLite opened the database read-only"
            throw MigrationStoreError(location: location, problem: .readOnly(reason))
        }
    }

    /// Proves, before a run, a reset or a set takes SQLite's lock, that this process may write
    /// the database, its journal files (`-wal`, `-shm`) and their folder, where SQLite creates
    /// them; then that the connection opened it for writing.
    public func checkWritable() throws {
        let database = URL(fileURLWithPath: path).resolvingSymlinksInPath()
        let files = ["", "-wal", "-shm"].map { (path: database.path + $0, what: $0.isEmpty ? "the database" : "the journal file") }
        let folder = database.deletingLastPathComponent().path
        if let problem = WriteAccess.problem(files: files, folder: folder) {
            throw MigrationStoreError(location: location, problem: .readOnly(problem))
        }
        // A database that does not exist yet is created by the first write; checking must not.
        guard databaseExists else { return }
        try prepareToWrite()
    }

    /// The domains the database holds records for, sorted.
    ///
    /// ```swift
    /// try SQLiteMigrationStore(path: databasePath).domains()   // ["default", "sync"]
    /// ```
    /// - Throws: `MigrationStoreError` when the database cannot be read or is not ours.
    public func domains() throws -> [String] {
        try read { db in try RecordTables.domains(in: db) }
    }

    /// Reads on this thread's transaction if there is one, else in a transaction of its own, so
    /// the marks and the history agree.
    private func read<T>(_ body: (Database) throws -> T) throws -> T { try transaction(.deferred, body) }

    /// Writes on this thread's transaction if there is one, else in a `BEGIN IMMEDIATE`
    /// transaction of its own, after putting the database in WAL mode.
    private func write<T>(_ body: (Database) throws -> T) throws -> T { try transaction(.immediate, body) }

    ///
    /// SQLite answers "busy" at once, without waiting, in a few cases (putting a database in
    /// WAL mode while another process opens it, a lock upgrade that could deadlock); until
    /// `body` has started, such a start is tried again until ``lockPatience`` runs out. A
    /// transaction whose body started is never tried again.
    private func transaction<T>(_ kind: Database.TransactionKind, _ body: (Database) throws -> T) throws -> T {
        let deadline = lockPatience.limit.map { ContinuousClock.now + $0 }
        while true {
            var bodyStarted = false
            do {
                return try access { db in
                    if db.isInsideTransaction {
                        bodyStarted = true
                        return try body(db)
                    }
                    if kind == .immediate { try connection.prepareForWrites(db) }
                    var result: T?
                    try db.inTransaction(kind) {
                        bodyStarted = true
                        result = try body(db)
                        return .commit
                    }
                    return result!
                }
            } catch let error as MigrationStoreError where !bodyStarted && error.isBusy
                && deadline.map({ ContinuousClock.now < $0 }) ?? true {
                usleep(UInt32.random(in: 5_000...25_000))
            }
        }
    }

    /// Runs `body` on the shared connection, waiting for another connection's lock as
    /// ``lockPatience`` allows, and turning SQLite's errors into store errors.
    private func access<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try connection.queue().unsafeReentrantWrite { db in
                sqlite3_busy_timeout(db.sqliteConnection, lockPatience.busyTimeoutMilliseconds)
                return try body(db)
            }
        } catch let error as DatabaseError {
            throw storeError(error)
        } catch let error as RecordTables.ForeignTable {
            throw MigrationStoreError(location: location, problem: .corrupt(error.description))
        } catch let error as RecordTables.UnreadableRecord {
            throw MigrationStoreError(location: location, problem: .corrupt(error.description))
        } catch let error as SharedConnection.OpenError {
            throw storeError(error.underlying)
        }
    }

    private func storeError(_ error: any Error) -> MigrationStoreError {
        guard let error = error as? DatabaseError else {
            return MigrationStoreError(location: location, problem: .unreadable(String(describing: error)))
        }
        let message = error.message ?? "\(error.resultCode)"
        switch error.resultCode.primaryResultCode {
        case .SQLITE_NOTADB: return MigrationStoreError(location: location, problem: .corrupt("not a SQLite database"))
        case .SQLITE_CORRUPT: return MigrationStoreError(location: location, problem: .corrupt(message))
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return MigrationStoreError(location: location, problem: .busy("held by another connection to the database (\(message)); \(lockPatience.gaveUp)"))
        case .SQLITE_CANTOPEN, .SQLITE_PERM, .SQLITE_AUTH: return MigrationStoreError(location: location, problem: .unreadable(message))
        default: return MigrationStoreError(location: location, problem: .unwritable(message))
        }
    }

    /// `state` with the place each mark is read from, for diagnostics.
    private func labelled(_ state: MigrationState) -> MigrationState {
        var state = state
        for mark in RecordedMark.allCases {
            state.markSources[mark] = "\(path): \(RecordTables.marks).\(mark.rawValue) (domain \(domain))"
        }
        return state
    }
}

extension SQLiteMigrationStore: RecordsAttempts {
    /// The domain's attempts, in their own table (none before the table exists).
    public func loadAttempts() throws -> [MigrationAttempt] {
        guard databaseExists else { return [] }
        return try read { db in try RecordTables.readAttempts(of: domain, in: db) }
    }

    /// Replaces the domain's attempts, in a transaction of its own (or this thread's).
    public func saveAttempts(_ attempts: [MigrationAttempt]) throws {
        try write { db in try RecordTables.writeAttempts(attempts, of: domain, in: db) }
    }
}

extension SQLiteMigrationStore: KeepsRunsApart {
    package var runLock: RunLock { connection.runLock }
    package var lockWaiting: LockWaiting.Policy { waiting }
}

private extension LockPatience {
    /// The patience as SQLite's busy timeout: whole milliseconds, 0 for none (SQLite then
    /// answers "busy" at once), its largest (about 24.8 days) for as long as it takes.
    var busyTimeoutMilliseconds: Int32 {
        guard let seconds else { return Int32.max }
        return Int32(min((seconds * 1_000).rounded(.up), Double(Int32.max)))
    }
}

private extension MigrationStoreError {
    /// Whether SQLite answered "busy" or "locked": the only errors this store reports as
    /// ``MigrationStoreError/Problem/busy(_:)``.
    var isBusy: Bool {
        if case .busy = problem { return true }
        return false
    }
}
