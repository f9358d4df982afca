import Foundation

/// The exclusion of one stored resource (a file, a `UserDefaults` suite and domain, a memory
/// store), shared by every store object on it in this process.
///
/// The design, which makes "exactly once" hold with any number of store objects, threads and
/// processes:
/// - **One per resource.** Every ``FileMigrationStore`` on one real file (whatever the path
///   or domain used to reach it) shares one `StoreResource`, so one in-process lock and one
///   `flock`; every ``UserDefaultsMigrationStore`` on the same defaults and domain shares one.
/// - **Per block.** A block (a version, a build, an update hook) runs while its own lock is
///   held, so a concurrent caller of the same block waits and then finds it recorded. Other
///   blocks are not held up: a block that waits on another thread which runs a different block
///   (`DispatchQueue.main.sync` from a background launch) does not deadlock.
/// - **Short record sections.** Reading and writing the records happens under a separate
///   re-entrant lock, held only while the records are read, merged and saved, never while a
///   body runs. Saves merge into the current records, so a block that runs another one inside
///   it loses neither record.
/// - **Across processes**, a file's `flock` is held by the process while any of its threads is
///   inside a block or a record section, so another process waits for the whole of it.
/// - **Runs against resets.** A registry run holds the resource's ``RunLock`` from its plan to
///   its last record, shared with other runs; a reset or set waits for it (with a file, on
///   `<file>.run.lock` across processes), so it never lands between two steps of a run.
final class StoreResource: Sendable {
    /// What the resource hands out to every store object on it, behind one lock.
    private struct Tables {
        /// The marks last read, per set of records (a file holds one per domain).
        var caches = KeyedList<MarksCache>()
        /// The lock of each block.
        var blocks: [String: BlockLock] = [:]
        /// Whether ``observeDefaultsChanges()`` was called.
        var observesDefaults = false
        /// The failures the drop-in saw, per set of records, made at the first need (see
        /// ``failedBlocks(for:)``).
        var failedBlocks: [String: FailedBlocks] = [:]
        /// What keeps runs apart from resets; made by the first that asks (a launch never does).
        var runLock: RunLock?
    }

    private let tables = Locked(Tables())
    private let records = RecursiveLock()
    private let fileLock: FileLock?
    /// The lock file runs share against resets in other processes; `nil`: this process only.
    private let runLockFile: String?

    init(fileLock: FileLock? = nil, runLockFile: String? = nil) {
        self.fileLock = fileLock
        self.runLockFile = runLockFile
    }

    /// The resource for `key`, shared process-wide: the same object for the same key. With an
    /// `owner` (an object whose identity is part of the key), the entry lasts only as long as
    /// the owner does, so a later object at the same address gets a resource of its own.
    static func shared(_ key: String, lockFile: String? = nil, runLockFile: String? = nil, owner: AnyObject? = nil) -> StoreResource {
        registry.resource(key, owner: owner) { StoreResource(fileLock: lockFile.map(FileLock.init), runLockFile: runLockFile) }
    }

    private static let registry = ResourceRegistry()

    /// The cache of the marks of `records` (a file's domain; `""` for a resource that holds one
    /// set of records): every store object on the same records gets the same cache, and the
    /// domains of one file get one each. An unwatched cache caches nothing until it is told
    /// that every change reaches it (see ``observeDefaultsChanges()``).
    func cache(for records: String = "", watched: Bool = true) -> MarksCache {
        tables.withLock { tables in
            if let existing = tables.caches[records] { return existing }
            let created = MarksCache(watched: watched)
            tables.caches[records] = created
            return created
        }
    }

    /// The migrations of `records` (a file's domain, as for ``cache(for:watched:)``) that failed
    /// in this process and have not succeeded since, shared by every migrator on them (the
    /// failure rule).
    func failedBlocks(for records: String) -> FailedBlocks {
        tables.withLock { tables in
            if let existing = tables.failedBlocks[records] { return existing }
            let created = FailedBlocks()
            tables.failedBlocks[records] = created
            return created
        }
    }

    /// Whether the `UserDefaults` change observer was asked for (it is registered shortly after).
    var isObservingDefaults: Bool { tables.withLock { $0.observesDefaults } }

    /// Starts dropping the cached marks whenever `UserDefaults` reports a change in this
    /// process. The observer is registered on another thread (registering is a launch's
    /// slowest step when nothing else has used `NotificationCenter` yet); until it is in
    /// place, the resource's caches cache nothing.
    func observeDefaultsChanges() {
        let started = tables.withLock { tables in
            defer { tables.observesDefaults = true }
            return tables.observesDefaults
        }
        guard !started else { return }
        // The observer keeps the resource (and so its tables) for the rest of the process.
        DispatchQueue.global(qos: .utility).async {
            _ = NotificationCenter.default.addObserver(forName: UserDefaults.didChangeNotification, object: nil, queue: nil) { _ in
                self.tables.withLock { $0.caches.values.forEach { $0.invalidate() } }
            }
            self.tables.withLock { $0.caches.values.forEach { $0.watch() } }
        }
    }

    /// What keeps the runs on the resource apart from its resets and sets (see ``RunLock``).
    var runLock: RunLock {
        tables.withLock { tables in
            if let existing = tables.runLock { return existing }
            let created = RunLock(path: runLockFile)
            tables.runLock = created
            return created
        }
    }

    /// Runs `body` holding the records: for read-merge-write. Re-entrant on one thread.
    /// Another process's hold is waited for as `policy` allows.
    func withRecords<T>(waiting policy: LockWaiting.Policy = .init(), _ body: () throws -> T) throws -> T {
        try acrossProcesses(waiting: policy) { try records.withLock(body) }
    }

    /// Runs `body` holding the block named `key`. `body` learns whether this thread is already
    /// inside the same block (a block that calls itself), which must then not run again.
    /// Another process's hold is waited for as `policy` allows.
    func withBlock<T>(_ key: String, waiting policy: LockWaiting.Policy = .init(), _ body: (_ alreadyRunning: Bool) throws -> T) throws -> T {
        let block = tables.withLock { tables in
            if let existing = tables.blocks[key] { return existing }
            let created = BlockLock()
            tables.blocks[key] = created
            return created
        }
        return try acrossProcesses(waiting: policy) { try block.withLock(body) }
    }

    /// The descriptor holding the file's `flock` while this process holds it; `nil` otherwise.
    var heldLockDescriptor: Int32? { fileLock?.heldDescriptor }

    /// Runs `body` while this process holds the resource against other processes, waiting for
    /// another one's hold as `policy` allows; a resource without a lock file never waits.
    func acrossProcesses<T>(waiting policy: LockWaiting.Policy, _ body: () throws -> T) throws -> T {
        guard let fileLock else { return try body() }
        return try fileLock.withLock(waiting: policy, body)
    }
}

/// Every ``StoreResource`` handed out, by key. An entry whose owner is gone is dropped when
/// the next resource is made.
final class ResourceRegistry: Sendable {
    private struct Entry {
        let resource: StoreResource
        let isOwned: Bool
        weak var owner: AnyObject?

        init(resource: StoreResource, owner: AnyObject?) {
            self.resource = resource
            self.isOwned = owner != nil
            self.owner = owner
        }

        var ownerIsGone: Bool { isOwned && owner == nil }
    }

    private let entries = Locked(KeyedList<Entry>())

    /// The resource for `key` (and `owner`, see ``StoreResource/shared(_:lockFile:runLockFile:owner:)``),
    /// made by `make` when there is none.
    func resource(_ key: String, owner: AnyObject?, make: () -> StoreResource) -> StoreResource {
        entries.withLock { entries in
            if let existing = entries[key], owner == nil || existing.owner === owner { return existing.resource }
            entries.removeAll { $0.ownerIsGone }
            let resource = make()
            entries[key] = Entry(resource: resource, owner: owner)
            return resource
        }
    }
}

/// A re-entrant lock (the package's one ``RecursiveLock``) that tells whether the holder is
/// already inside.
private final class BlockLock: @unchecked Sendable {
    // Safe: `depth` is only touched while `lock` is held.
    private let lock = RecursiveLock()
    private var depth = 0

    func withLock<T, E: Error>(_ body: (_ alreadyRunning: Bool) throws(E) -> T) throws(E) -> T {
        try lock.withLock { () throws(E) -> T in
            depth += 1
            defer { depth -= 1 }
            return try body(depth > 1)
        }
    }
}
