import Foundation

/// A store in an app's preferences plist (`Library/Preferences/<bundle id>.plist`), under the
/// same keys as ``UserDefaultsMigrationStore``: so that a tool can read and set the state of a
/// real device (a simulator's container, a copied sandbox) that the app then finds in its
/// `UserDefaults`.
///
/// It reads every mark MTMigration and its look-alikes left (the highest wins) and writes
/// MTMigration's keys; the history lives under `MigrationExplorer.*`, a named domain under
/// `MigrationExplorer.<domain>.*`. A save changes those keys only: every other key stays as
/// it was, and the file keeps its format (binary or XML). Writes replace the file atomically;
/// every store object on one real file shares one lock and one `flock` on `<file>.lock`. A file
/// that is not a binary or XML plist holding a dictionary is an error: it is left byte for
/// byte as it was and nothing runs.
///
/// - Warning: A running app keeps its defaults in memory and writes them back: quit it before
///   changing its plist, or it may never see the change and overwrite it.
///
/// ```swift
/// let plist = URL(filePath: container + "/Library/Preferences/com.example.notes.plist")
/// let store = PropertyListMigrationStore(url: plist)
/// try store.update { $0 = registry.device(lastRan: try Version("0.8"), over: $0) }
/// ```
public final class PropertyListMigrationStore: MigrationStore {
    /// The path as given.
    public var url: URL { file.url }
    /// The domain, or `nil` for MTMigration's own keys.
    public let domain: String?
    private let keys: UserDefaultsKeys
    let file: StoreFile
    let cache: MarksCache
    public var location: String { file.location }
    public var lockPatience: LockPatience { file.waiting.patience }

    /// A store on the plist at `url`, under MTMigration's keys (`domain` `nil`) or a named
    /// domain's. Nothing is read until the records are asked for.
    ///
    /// ```swift
    /// let store = PropertyListMigrationStore(url: URL(filePath: "com.example.notes.plist"), domain: "database")
    /// let tool = PropertyListMigrationStore(url: URL(filePath: "com.example.notes.plist"), lockPatience: .noWait)
    /// ```
    /// - Parameters:
    ///   - url: the preferences plist.
    ///   - domain: `nil` for MTMigration's own keys, or a named domain's.
    ///   - lockPatience: how long to wait for `<file>.lock` (or, for a reset, the runs'
    ///     `<file>.run.lock`) that another process holds before giving up with
    ///     ``MigrationStoreError/Problem/busy(_:)``, naming the holder where the system tells it.
    public convenience init(url: URL, domain: String? = nil, lockPatience: LockPatience = .forever) {
        self.init(url: url, domain: domain, waiting: LockWaiting.Policy(patience: lockPatience))
    }

    /// A store on the plist at `url` that waits for another process's lock as `waiting` says,
    /// and tells it.
    package init(url: URL, domain: String? = nil, waiting: LockWaiting.Policy) {
        self.domain = domain
        self.keys = UserDefaultsKeys(domain: domain)
        let path = url.filePath
        self.file = StoreFile(url: url, path: path, location: domain.map { "\(path) (\($0))" } ?? path, waiting: waiting)
        self.cache = file.resource.cache(for: "plist " + (domain ?? ""))
    }

    public func load() throws -> MigrationState {
        try read().state
    }

    /// The marks, from the cache while the file is unchanged (one `stat`).
    public func loadMarks() throws -> MigrationState {
        try cachedMarks().state
    }

    func cachedMarks() throws -> MarksCache.Entry {
        try cache.marks(stamp: file.stamp, load: load)
    }

    /// Replaces the records; the file's other keys stay. A file whose records cannot be read
    /// is refused, not overwritten.
    public func save(_ state: MigrationState) throws {
        try withExclusiveAccess {
            let (values, _) = try read()
            try keys.write(state, to: values, location: location)
            let data: Data
            do { data = try values.encoded() } catch {
                throw MigrationStoreError(location: location, problem: .unwritable(String(describing: error)))
            }
            try file.replace(with: data)
            cache.invalidate()
        }
    }

    public func withExclusiveAccess<T>(_ body: () throws -> T) throws -> T {
        try file.withRecords(body)
    }

    public func withExclusiveAccess<T>(toBlock block: String, _ body: (_ alreadyRunning: Bool) throws -> T) throws -> T {
        try file.withBlock(block, body)
    }

    /// Proves, before a body runs, that the file may be written and can be replaced (see
    /// ``FileMigrationStore/prepareToWrite()``).
    public func prepareToWrite() throws {
        try file.prepareToWrite()
    }

    /// Proves that this process may write the plist, its lock file and its folder (see
    /// ``FileMigrationStore/checkWritable()``): a read-only plist is not replaced.
    public func checkWritable() throws {
        try file.checkWritable()
    }

    /// The domains the file records anything for (marks or history): `nil` for MTMigration's
    /// keys, first, then each named domain, sorted.
    ///
    /// ```swift
    /// try PropertyListMigrationStore(url: plist).domains()   // [nil, "database"]
    /// ```
    /// - Throws: ``MigrationStoreError`` when the file is not a preferences plist, or a
    ///   domain's history cannot be read.
    public func domains() throws -> [String?] {
        let values = try read().values
        let domains: [String?] = [nil] + UserDefaultsKeys.namedDomains(in: values.keys)
        return try domains.filter { domain in
            try !UserDefaultsKeys(domain: domain).state(in: values, location: location, source: source).isFreshInstall
        }
    }

    /// The marks recorded under older spellings of MTMigration's keys (`lastMigrationVersion`,
    /// `Migration.lastVersion`, …), which the next save removes: reading takes the highest mark
    /// of every spelling, so one left behind could outrank the marks saved.
    /// - Throws: ``MigrationStoreError`` when the file is not a preferences plist.
    package func olderMarkKeys() throws -> [(key: String, value: String)] {
        keys.olderKeys(in: try read().values)
    }

    /// The descriptor holding the store's `flock` while the calling thread holds the store
    /// (see ``FileMigrationStore/lockDescriptor``).
    public var lockDescriptor: Int32? { file.resource.heldLockDescriptor }

    private func source(_ key: String) -> String { "\(file.path) \"\(key)\"" }

    /// The file's values and the records in them.
    private func read() throws -> (values: PropertyListValues, state: MigrationState) {
        let values: PropertyListValues
        if let data = try file.read() {
            do { values = try PropertyListValues(data: data) } catch {
                throw MigrationStoreError(location: location, problem: .corrupt(error.description))
            }
        } else {
            values = PropertyListValues()
        }
        return (values, try keys.state(in: values, location: location, source: source))
    }
}

extension PropertyListMigrationStore: RecordsAttempts {
    /// The attempts, under their own key (the whole file is read: only a run that has a
    /// migration to start asks).
    public func loadAttempts() throws -> [MigrationAttempt] {
        try load().attempts
    }

    /// A step's marks, records and attempts in one rewrite of the file.
    public func saveMarks(_ state: MigrationState, appending records: [MigrationRecord], attempts: [MigrationAttempt]) throws {
        try update { current in
            current.takeStep(state, appending: records)
            current.attempts = attempts
        }
    }

    /// Replaces the attempts; the file is rewritten whole (atomic replace, flushed).
    public func saveAttempts(_ attempts: [MigrationAttempt]) throws {
        try withExclusiveAccess {
            let (values, _) = try read()
            try keys.write(attempts: attempts, to: values, location: location)
            let data: Data
            do { data = try values.encoded() } catch {
                throw MigrationStoreError(location: location, problem: .unwritable(String(describing: error)))
            }
            try file.replace(with: data)
            cache.invalidate()
        }
    }
}
