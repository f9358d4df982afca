/// Where a ``MigrationState`` is kept. Stores only load and save; they decide nothing.
///
/// ```swift
/// let store: any MigrationStore = FileMigrationStore(url: URL(filePath: "state.json"))
/// let state = try store.update { state in
///     state.lastMigratedVersion = "1.0"          // merged into the current records
/// }
/// ```
public protocol MigrationStore: Sendable {
    /// Where the records live, for people: "memory", a file path, "UserDefaults (domain)".
    var location: String { get }

    /// Whether the store is a throwaway copy (a simulation or sandbox) rather than a real record.
    var isSandbox: Bool { get }

    /// How long the store waits for a lock another process holds (a block's, or the runs' that
    /// a reset waits for) before it gives up with ``MigrationStoreError/Problem/busy(_:)``;
    /// by default as long as it takes.
    var lockPatience: LockPatience { get }

    /// The recorded state; a store with no records yet gives ``MigrationState/freshInstall``.
    /// - Throws: ``MigrationStoreError`` when the records exist but cannot be read or parsed.
    func load() throws -> MigrationState

    /// The four marks, and the history only where reading it costs nothing extra: what every
    /// launch reads. The default is ``load()``.
    func loadMarks() throws -> MigrationState

    /// Replaces the recorded state, all or nothing.
    /// - Throws: ``MigrationStoreError`` when it cannot be written; the old records stay.
    func save(_ state: MigrationState) throws

    /// Runs `body` while no other thread (and, for stores shared between processes, no other
    /// process) reads or writes the same records. Calls may nest on one thread. Hold it only
    /// for a read-merge-write, never while a migration body runs.
    func withExclusiveAccess<T>(_ body: () throws -> T) throws -> T

    /// Runs `body` while no other thread or process runs the block named `block` on the same
    /// records (`version 1.1`, `build 12`, …); other blocks may run meanwhile. `body` learns
    /// whether this thread is already inside the same block. The default holds the whole
    /// store through ``withExclusiveAccess(_:)``.
    func withExclusiveAccess<T>(toBlock block: String, _ body: (_ alreadyRunning: Bool) throws -> T) throws -> T

    /// Runs `body`, a block's body and then its record, inside
    /// ``withExclusiveAccess(toBlock:_:)``, as one unit: a store that commits a block with its
    /// record (``TransactionalMigrationStore``) runs it in one transaction, which commits when
    /// `body` returns and rolls back when it throws. What a run writes before it (the block's
    /// attempt, see ``RecordsAttempts``) is then committed already. The default runs `body`.
    func withBlockCommit<T>(_ body: () throws -> T) throws -> T

    /// Waits, without taking it, while another process holds `block` (named as in
    /// ``withExclusiveAccess(toBlock:_:)``), and returns whether it waited. A run that waited
    /// reads the records again before taking the block, and finds it done without queueing for
    /// it: many processes that waited for one block go on at once, not one after another under
    /// its lock. The default returns `false` at once; a store shared by a fleet implements it.
    /// - Throws: ``MigrationStoreError`` when the store cannot be reached.
    func waitWhileAnotherHolds(block: String) throws -> Bool

    /// Proves that the records can be written now (the folder is writable, the disk has room),
    /// so that no body runs whose success could not be recorded. The default does nothing.
    /// - Throws: ``MigrationStoreError`` saying why the records cannot be written.
    func prepareToWrite() throws

    /// Proves that this process may write the store at all (its files and folder, for a store
    /// in files), before a run, a reset or a set starts, without taking the lock and without
    /// leaving anything behind (no lock file): a store that cannot be written is then an error
    /// before anything runs, not a failed migration. The default is ``prepareToWrite()``.
    /// - Throws: ``MigrationStoreError`` (``MigrationStoreError/Problem/readOnly(_:)``) saying
    ///   what cannot be written and why.
    func checkWritable() throws

    /// Records the four marks and ``MigrationState/historyIsComplete`` of `state` (its history
    /// is not read) and appends `records` to the history, all or nothing; durable on return.
    /// A run records each step through it. The default reads the whole state, merges and saves
    /// it (``update(_:)``); a store that can add records without rewriting its history
    /// implements it, so that a run of n steps costs n, not n².
    /// - Throws: ``MigrationStoreError`` when it cannot be written; the old records stay.
    func saveMarks(_ state: MigrationState, appending records: [MigrationRecord]) throws

    /// How a block's record is kept with the block: saved after it, or committed with it in
    /// one transaction. It comes from the protocol the store conforms to (``MigrationStore``
    /// alone: ``BlockCommit/recordAfterBlock``; ``TransactionalMigrationStore``:
    /// ``BlockCommit/recordInBlockTransaction``); a store does not declare it itself.
    static var blockCommit: BlockCommit { get }

    /// Whether the store's calls wait on a server over the network (a database shared by a
    /// fleet): the asynchronous run then calls it from a thread of the run's own, never from a
    /// thread of the concurrency pool. The default is `false`: a store on this device answers
    /// at once.
    static var waitsOnNetwork: Bool { get }
}

extension MigrationStore {
    /// A real record, not a sandbox.
    public var isSandbox: Bool { false }

    /// As long as it takes: a store that meets no other process's lock never waits for one.
    public var lockPatience: LockPatience { .forever }

    /// The whole state, through ``load()``.
    public func loadMarks() throws -> MigrationState { try load() }

    /// Holds the whole store through ``withExclusiveAccess(_:)``; the block is never found
    /// already running.
    public func withExclusiveAccess<T>(toBlock block: String, _ body: (_ alreadyRunning: Bool) throws -> T) throws -> T {
        try withExclusiveAccess { try body(false) }
    }

    /// Runs `body`: the block's lock is all it takes.
    public func withBlockCommit<T>(_ body: () throws -> T) throws -> T { try body() }

    /// Does not wait: the block's own lock does.
    public func waitWhileAnotherHolds(block: String) throws -> Bool { false }

    /// Proves nothing: a store that can always be written.
    public func prepareToWrite() throws {}

    /// The same proof as ``prepareToWrite()``.
    public func checkWritable() throws { try prepareToWrite() }

    /// The whole state merged and saved under the store's lock: the history is read and
    /// rewritten.
    public func saveMarks(_ state: MigrationState, appending records: [MigrationRecord]) throws {
        try update { $0.takeStep(state, appending: records) }
    }

    /// A store's record is saved after the block.
    public static var blockCommit: BlockCommit { .recordAfterBlock }

    /// A store on this device.
    public static var waitsOnNetwork: Bool { false }

    /// Whether this store's calls wait on the network (``waitsOnNetwork``).
    var waitsOnNetwork: Bool { Self.waitsOnNetwork }

    /// Reads the current records, applies `change` and saves the result, all under the store's
    /// lock, so that concurrent writers merge instead of overwriting each other.
    ///
    /// ```swift
    /// try store.update { $0.lastMigratedVersion = "1.0" }
    /// ```
    /// - Returns: the state as saved.
    @discardableResult
    public func update(_ change: (inout MigrationState) throws -> Void) throws -> MigrationState {
        try withExclusiveAccess {
            var state = try load()
            try change(&state)
            try save(state)
            return state
        }
    }
}
