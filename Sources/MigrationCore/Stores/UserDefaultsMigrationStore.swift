import Foundation

/// A store in `UserDefaults`, under MTMigration's own keys, that reads what every library of
/// its kind left behind, so that an app switching to this package runs nothing twice.
///
/// The default domain reads each mark from MTMigration's Objective-C keys
/// (`MTMigration.lastMigrationVersion`, …), MTMigration's Swift pod keys
/// (`Migration.lastMigrationVersion`, …), Clafou's Migration (`lastMigrationVersion`) and
/// Hengyu's Migration (`Migration.lastVersion`, …), and takes the highest per mark. It writes
/// MTMigration's Objective-C keys, so going back to MTMigration still works, and removes the
/// other libraries' keys once their marks are folded in, so that a leftover
/// `[MTMigration reset]` resets everything. The history lives under `MigrationExplorer.*`.
/// A named domain keeps all its records under `MigrationExplorer.<domain>.*`.
///
/// Every store object on the same defaults and domain shares one lock: on `.standard`, on
/// one suite name (``init(suiteName:domain:)``), or on one `UserDefaults` object.
///
/// ```swift
/// let defaultsStore = UserDefaultsMigrationStore(defaults: .standard)
/// let databaseStore = UserDefaultsMigrationStore(defaults: .standard, domain: "database")
/// let groupStore = UserDefaultsMigrationStore(suiteName: "group.com.example.notes")
/// ```
public final class UserDefaultsMigrationStore: MigrationStore, @unchecked Sendable {
    // Safe: the defaults are reached one call at a time (see ``SerializedDefaults``); the
    // resource serialises read-modify-write.
    private let defaults: SerializedDefaults
    private let keys: UserDefaultsKeys
    let resource: StoreResource
    let cache: MarksCache
    public let location: String

    /// A store on `defaults`, under MTMigration's keys (`domain` `nil`) or a named domain's;
    /// every store on the same `UserDefaults` object and domain shares one lock.
    ///
    /// ```swift
    /// let store = UserDefaultsMigrationStore()   // .standard, MTMigration's keys
    /// ```
    public convenience init(defaults: UserDefaults = .standard, domain: String? = nil) {
        // `.standard` is one object for the whole process, so it needs no name of its own.
        self.init(defaults: defaults, identity: "object \(ObjectIdentifier(defaults).hashValue)", owner: defaults, domain: domain)
    }

    /// A store on the defaults of the suite `suiteName` (`nil`: the standard defaults); every
    /// store on the same suite name shares one lock, whichever `UserDefaults` object it uses.
    ///
    /// ```swift
    /// let store = UserDefaultsMigrationStore(suiteName: "group.com.example.notes")
    /// ```
    public convenience init(suiteName: String?, domain: String? = nil) {
        guard let suiteName, let defaults = UserDefaults(suiteName: suiteName) else {
            self.init(defaults: .standard, domain: domain)
            return
        }
        self.init(defaults: defaults, identity: "suite \(suiteName)", owner: nil, domain: domain)
    }

    private init(defaults: UserDefaults, identity: String, owner: AnyObject?, domain: String?) {
        self.defaults = SerializedDefaults(defaults)
        self.keys = UserDefaultsKeys(domain: domain)
        self.location = domain.map { "UserDefaults (\($0))" } ?? "UserDefaults"
        self.resource = StoreResource.shared("defaults \(identity) domain \(domain ?? "")", owner: owner)
        self.cache = resource.cache(watched: false)
    }

    public func load() throws -> MigrationState {
        try keys.state(in: defaults, location: location, source: Self.source)
    }

    /// The four marks, each the highest any library recorded, from the cache while nothing
    /// changed them (a save through any store on the same defaults and domain, or
    /// `UserDefaults.didChangeNotification`, drops the cache); no history.
    public func loadMarks() -> MigrationState {
        var state = cachedMarks().state
        state.historyIsComplete = keys.isHistoryComplete(in: defaults)
        return state
    }

    /// The marks a launch reads (``UserDefaultsKeys/marks(in:source:)``), parsed. They are
    /// cached once the second read has registered the change observer (see
    /// ``StoreResource/observeDefaultsChanges()``): a launch that reads them once never does.
    func cachedMarks() -> MarksCache.Entry {
        cache.marks(startWatching: resource.observeDefaultsChanges) {
            var state = keys.marks(in: defaults)
            state.nameSourcesOfLooseMarks { keys.key(of: $0, in: defaults).map(Self.source) }
            return state
        }
    }

    private static func source(_ key: String) -> String { "UserDefaults \"\(key)\"" }

    public func save(_ state: MigrationState) throws {
        try withExclusiveAccess {
            try keys.write(state, to: defaults, location: location)
            cache.invalidate()
        }
    }

    /// Writes the marks and adds `records` to the recent ones, without rewriting the rest of
    /// the history.
    public func saveMarks(_ marks: MigrationState, appending records: [MigrationRecord]) throws {
        try withExclusiveAccess {
            try keys.append(marks, records: records, to: defaults, location: location)
            cache.invalidate()
        }
    }

    public func withExclusiveAccess<T>(_ body: () throws -> T) throws -> T {
        try resource.withRecords(body)
    }

    public func withExclusiveAccess<T>(toBlock block: String, _ body: (_ alreadyRunning: Bool) throws -> T) throws -> T {
        try resource.withBlock(block, body)
    }
}

extension UserDefaultsMigrationStore: RecordsAttempts {
    /// The attempts, under their own key.
    public func loadAttempts() throws -> [MigrationAttempt] {
        try keys.storedAttempts(in: defaults, location: location)
    }

    /// Replaces the attempts, as durably as `UserDefaults` keeps what it is given.
    public func saveAttempts(_ attempts: [MigrationAttempt]) throws {
        try withExclusiveAccess {
            try keys.write(attempts: attempts, to: defaults, location: location)
            cache.invalidate()
        }
    }
}
