import Foundation

/// A store in a JSON file, for command-line tools and servers.
///
/// A step of a run appends one line to the file and flushes it, so a run of n steps costs n;
/// other writes replace the file atomically (temporary file, `fsync`, `rename`); see
/// <doc:StoresAndGuarantees> for the layout. An advisory lock on `<file>.lock` keeps two processes from
/// running the same migration. The path may be a
/// symbolic link: the store reads, locks and writes the file it points to, so every path to
/// one file is one store. A file that cannot be read, is not JSON, has a field this package
/// does not know, a duplicate key or a wrong type is an error: it is left byte for byte as it
/// was and nothing runs. One file can hold several independent domains (say, "defaults" and
/// "database"); every store object on one file, whatever its domain, shares one lock.
///
/// ```swift
/// let store = FileMigrationStore(url: URL(filePath: "/var/lib/notes/migrations.json"), domain: "database")
/// let state = try store.load()
/// ```
public final class FileMigrationStore: MigrationStore {
    /// The path as given.
    public var url: URL { file.url }
    /// The domain whose records this store reads and writes; other domains in the file stay.
    public let domain: String
    /// The file the records are in: ``url`` with every symbolic link resolved.
    public var fileURL: URL { file.fileURL }
    let file: StoreFile
    private let records: RecordsFile
    let cache: MarksCache
    public var location: String { file.location }
    public var lockPatience: LockPatience { file.waiting.patience }

    /// The domain used when none is named.
    public static let defaultDomain = "default"

    /// A store on the file at `url` (created by the first write), for the records of `domain`.
    /// Nothing is read until the records are asked for.
    ///
    /// ```swift
    /// let store = FileMigrationStore(url: URL(filePath: "state.json"))
    /// let database = FileMigrationStore(url: URL(filePath: "state.json"), domain: "database")
    /// let deployStep = FileMigrationStore(url: URL(filePath: "state.json"), lockPatience: .upTo(.seconds(30)))
    /// ```
    /// - Parameters:
    ///   - url: the file; created by the first write.
    ///   - domain: whose records these are; one file can hold several.
    ///   - lockPatience: how long to wait for `<file>.lock` (or, for a reset, the runs'
    ///     `<file>.run.lock`) that another process holds before giving up with
    ///     ``MigrationStoreError/Problem/busy(_:)``, naming the holder where the system tells it.
    public convenience init(url: URL, domain: String = FileMigrationStore.defaultDomain, lockPatience: LockPatience = .forever) {
        self.init(url: url, domain: domain, waiting: LockWaiting.Policy(patience: lockPatience))
    }

    /// A store on `url` that waits for another process's lock as `waiting` says, and tells it.
    package init(url: URL, domain: String = FileMigrationStore.defaultDomain, waiting: LockWaiting.Policy) {
        self.domain = domain
        let path = url.filePath
        self.file = StoreFile(url: url, path: path, location: domain == Self.defaultDomain ? path : "\(path) (\(domain))", waiting: waiting)
        self.records = RecordsFile(path: file.realPath, location: file.location)
        self.cache = file.resource.cache(for: "json " + domain)
    }

    public func load() throws -> MigrationState {
        sourced(try records.read()[domain] ?? .freshInstall)
    }

    /// Replaces this domain's records; the file is rewritten whole (atomic replace).
    public func save(_ state: MigrationState) throws {
        try withExclusiveAccess {
            var domains = try records.read()
            domains[domain] = state
            try records.rewrite(domains, bounded: false)
            cache.invalidate()
        }
    }

    /// Appends one line and flushes it; rewrites the file, compacted, when it is due.
    public func saveMarks(_ marks: MigrationState, appending appended: [MigrationRecord]) throws {
        try saveMarks(marks, appending: appended, attempts: nil)
    }

    /// ``saveMarks(_:appending:)`` that replaces the attempts too (`nil`: keeps them), in the
    /// same line.
    private func saveMarks(_ marks: MigrationState, appending appended: [MigrationRecord], attempts: [MigrationAttempt]?) throws {
        try withExclusiveAccess {
            if try records.append(domain: domain, marks: marks, records: appended, attempts: attempts) {
                var written = marks
                written.history = []
                return cache.remember(sourced(written), stamp: FileStamp.of(records.path))
            }
            defer { cache.invalidate() }
            var domains = try records.read()
            var state = domains[domain] ?? MigrationState()
            state.takeStep(marks, appending: appended)
            if let attempts { state.attempts = attempts }
            domains[domain] = state
            try records.rewrite(domains, bounded: true)
        }
    }

    /// The marks, from the cache while the file is unchanged (one `stat`); the history is not
    /// read.
    public func loadMarks() throws -> MigrationState {
        try cachedMarks().state
    }

    func cachedMarks() throws -> MarksCache.Entry {
        try cache.marks(stamp: FileStamp.of(records.path)) {
            var state = try records.readMarks(of: domain) ?? .freshInstall
            state.nameSourcesOfLooseMarks(source)
            return state
        }
    }

    /// `state` with the field each mark was read from.
    private func sourced(_ state: MigrationState) -> MigrationState {
        var state = state
        for mark in RecordedMark.allCases { state.markSources[mark] = source(of: mark) }
        return state
    }

    /// The field `mark` is read from.
    private func source(of mark: RecordedMark) -> String {
        "\(file.path): domains.\(domain).\(mark.rawValue)"
    }

    public func withExclusiveAccess<T>(_ body: () throws -> T) throws -> T {
        try file.withRecords(body)
    }

    public func withExclusiveAccess<T>(toBlock block: String, _ body: (_ alreadyRunning: Bool) throws -> T) throws -> T {
        try file.withBlock(block, body)
    }

    /// Proves the next write can be made before a body runs: a step that will append its line
    /// needs the file open for writing and room for the line; any other write (the first one,
    /// a compaction) is proved by opening the file for writing and writing as many bytes as the
    /// records take beside it, then removing them.
    public func prepareToWrite() throws {
        if records.canAppend() { return }
        try file.prepareToWrite()
    }

    /// Proves that this process may write the file, its lock file and its folder, before a
    /// run, a reset or a set: a read-only file counts as one that cannot be written.
    public func checkWritable() throws {
        try file.checkWritable()
    }

    /// The descriptor holding the store's `flock` while the calling thread is inside
    /// ``withExclusiveAccess(_:)`` or running a block; `nil` outside them.
    ///
    /// A `flock` belongs to the open file, not to the process: a child process that inherits
    /// this descriptor (as its standard input, say) holds the lock too, and the lock lasts until
    /// every process holding it has exited, even when this process is killed first. Hand it
    /// to the commands a migration runs, so that no second run starts while one still runs.
    ///
    /// ```swift
    /// try store.withExclusiveAccess {
    ///     let lock = store.lockDescriptor!   // the child's standard input, for example
    /// }
    /// ```
    public var lockDescriptor: Int32? { file.resource.heldLockDescriptor }

    /// The domains the file holds records for, sorted; empty when the file does not exist.
    /// - Throws: ``MigrationStoreError`` when the file cannot be read or parsed.
    public func domains() throws -> [String] {
        try records.read().keys.sorted()
    }
}

extension FileMigrationStore: RecordsAttempts {
    /// The domain's attempts, from its last line with attempts, read from the end of the file:
    /// a step costs the same however long the history is.
    public func loadAttempts() throws -> [MigrationAttempt] {
        try records.readAttempts(of: domain)
    }

    /// A step's marks, records and attempts in one appended line.
    public func saveMarks(_ state: MigrationState, appending records: [MigrationRecord], attempts: [MigrationAttempt]) throws {
        try saveMarks(state, appending: records, attempts: Optional(attempts))
    }

    /// Appends one line with the domain's attempts and flushes it; rewrites the file when it
    /// is due.
    public func saveAttempts(_ attempts: [MigrationAttempt]) throws {
        try withExclusiveAccess {
            defer { cache.invalidate() }
            if try records.append(domain: domain, attempts: attempts) { return }
            var domains = try records.read()
            var state = domains[domain] ?? .freshInstall
            state.attempts = attempts
            domains[domain] = state
            try records.rewrite(domains, bounded: true)
        }
    }
}
