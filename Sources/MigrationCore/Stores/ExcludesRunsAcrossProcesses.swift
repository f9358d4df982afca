/// A store whose registry runs and whole-record changes (a reset, a `set`) are kept apart
/// across processes and machines, not only inside this process: the capability a store
/// written outside this package adopts to get the exclusion this package's file, SQLite and
/// PostgreSQL stores have.
///
/// A run holds ``runExclusion`` shared from its plan to its last step; ``MigrationStore/withoutRuns(onWait:_:)``
/// (and so ``Migrator/reset()``) holds it exclusive, so a reset made by another process lands
/// before a run plans or after its last step, never between two steps. A store that does not
/// adopt it keeps its runs apart from its resets in this process only.
///
/// ```swift
/// struct NotesFileStore: MigrationStore, ExcludesRunsAcrossProcesses {
///     let url: URL
///     var runExclusion: RunExclusion { .lockFile(url.path + ".runs") }
///     // load, save, withExclusiveAccess, …
/// }
/// ```
public protocol ExcludesRunsAcrossProcesses: MigrationStore {
    /// The lock every process takes on these records. Every store object on the same records
    /// must name the same lock.
    var runExclusion: RunExclusion { get }
}

/// What keeps the runs of a store's records apart from its resets across processes: a lock
/// file, or a lock of the store's own (a database's advisory lock).
///
/// ```swift
/// let exclusion = RunExclusion.lockFile("/var/lib/notes/records.runs")
/// let ownLock = RunExclusion.lock(RecordsFileLock(descriptor: descriptor))   // see SharedExclusiveLock
/// ```
public struct RunExclusion: Sendable {
    enum Kind: Sendable {
        case lockFile(String)
        case lock(any SharedExclusiveLock)
    }

    let kind: Kind

    /// A `flock` on the file at `path`, made when missing (and left in place: removing a lock
    /// file another process has open would split the lock in two).
    public static func lockFile(_ path: String) -> RunExclusion { RunExclusion(kind: .lockFile(path)) }

    /// A lock of the store's own, held shared by runs and exclusive by a reset.
    public static func lock(_ lock: any SharedExclusiveLock) -> RunExclusion { RunExclusion(kind: .lock(lock)) }
}
