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
/// `[MTMigration reset]` resets everything. The history lives under `MigrationExplorer.*`:
/// a step adds its record to a short list of recent ones (`MigrationExplorer.recentHistory`),
/// which joins the rest (`MigrationExplorer.history`, a JSON list) every 256 records without
/// decoding it; the rest is bounded by ``MigrationRule/boundedHistory(_:)`` as it doubles.
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
public final class UserDefaultsMigrationStore: MigrationStore, MarksCaching, HistoryAppending, @unchecked Sendable {
    // Safe: UserDefaults is documented as thread-safe; the resource serialises read-modify-write.
    private let defaults: UserDefaults
    private let keys: UserDefaultsKeys
    private let resource: StoreResource
    public let location: String

    public convenience init(defaults: UserDefaults = .standard, domain: String? = nil) {
        let isStandard = defaults === UserDefaults.standard
        self.init(defaults: defaults, identity: isStandard ? "standard" : "object \(ObjectIdentifier(defaults).hashValue)",
                  owner: isStandard ? nil : defaults, domain: domain)
    }

    /// A store on the defaults of the suite `suiteName` (`nil`: the standard defaults); every
    /// store on the same suite name shares one lock, whichever `UserDefaults` object it uses.
    public convenience init(suiteName: String?, domain: String? = nil) {
        guard let suiteName, let defaults = UserDefaults(suiteName: suiteName) else {
            self.init(defaults: .standard, domain: domain)
            return
        }
        self.init(defaults: defaults, identity: "suite \(suiteName)", owner: nil, domain: domain)
    }

    private init(defaults: UserDefaults, identity: String, owner: AnyObject?, domain: String?) {
        self.defaults = defaults
        self.keys = UserDefaultsKeys(domain: domain)
        self.location = domain.map { "UserDefaults (\($0))" } ?? "UserDefaults"
        self.resource = StoreResource.shared("defaults \(identity) domain \(domain ?? "")", owner: owner)
        resource.observeDefaultsChanges()
    }

    public func load() throws -> MigrationState {
        var state = readMarks()
        if let data = defaults.data(forKey: keys.history) {
            state.history = try decodeHistory(data, key: keys.history)
        }
        for data in recentRecords() {
            state.history.append(contentsOf: try decodeHistory(Data("[".utf8) + data + Data("]".utf8), key: keys.recentHistory))
        }
        state.historyIsComplete = defaults.object(forKey: keys.historyIsComplete) == nil
            ? state.isFreshInstall : defaults.bool(forKey: keys.historyIsComplete)
        return state
    }

    private func decodeHistory(_ data: Data, key: String) throws -> [MigrationRecord] {
        do { return try JSONDecoder.migrationRecords.decode([MigrationRecord].self, from: data) } catch {
            throw MigrationStoreError(location: "\(location) \(key)", problem: .corrupt(String(describing: error)))
        }
    }

    /// The records added since the history was last joined, each one JSON-encoded.
    private func recentRecords() -> [Data] {
        defaults.array(forKey: keys.recentHistory) as? [Data] ?? []
    }

    /// The four marks, each the highest any library recorded; no history. From the cache
    /// while nothing changed them (see ``MarksCache`` for what counts as a change).
    public func loadMarks() -> MigrationState {
        cachedMarks().state
    }

    func cachedMarks() -> MarksCache.Entry {
        guard resource.observesDefaultsChanges else {
            let state = readMarks()
            return MarksCache.Entry(state: state, marks: RecordedMarks(state), stamp: nil)
        }
        return resource.cache.marks { readMarks() }
    }

    private func readMarks() -> MigrationState {
        var state = MigrationState()
        for mark in RecordedMark.allCases {
            guard let (key, value) = highest(of: keys.read[mark.index]) else { continue }
            state[mark] = value
            state.markSources[mark] = "UserDefaults \"\(key)\""
        }
        state.historyIsComplete = defaults.bool(forKey: keys.historyIsComplete)
        return state
    }

    public func save(_ state: MigrationState) throws {
        let history = try encode(state.history)
        try withExclusiveAccess {
            writeMarks(state)
            defaults.set(history, forKey: keys.history)
            defaults.removeObject(forKey: keys.recentHistory)
            resource.cache.invalidate()
        }
    }

    /// Writes the marks and adds `records` to the recent ones; every 256, they join the rest.
    func saveMarks(_ marks: MigrationState, appending records: [MigrationRecord]) throws {
        let encoded = try records.map { try encode($0) }
        try withExclusiveAccess {
            writeMarks(marks)
            let recent = recentRecords() + encoded
            if recent.count < Self.recentLimit {
                defaults.set(recent, forKey: keys.recentHistory)
            } else {
                try joinHistory(recent)
            }
            resource.cache.invalidate()
        }
    }

    private static let recentLimit = 256

    /// Appends `recent` to the stored history list by splicing its JSON, without decoding it;
    /// once the list has doubled since it was last bounded, decodes, bounds and rewrites it.
    private func joinHistory(_ recent: [Data]) throws {
        var history = defaults.data(forKey: keys.history) ?? Data("[]".utf8)
        guard let close = history.lastIndex(of: UInt8(ascii: "]")) else {
            throw MigrationStoreError(location: "\(location) \(keys.history)", problem: .corrupt("not a JSON list"))
        }
        let isEmpty = history[history.index(after: history.startIndex)..<close].allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        history.removeSubrange(close...)
        for (index, record) in recent.enumerated() {
            if !isEmpty || index > 0 { history.append(UInt8(ascii: ",")) }
            history.append(record)
        }
        history.append(UInt8(ascii: "]"))
        let bounded = defaults.integer(forKey: keys.historyBoundedBytes)
        if history.count > 2 * bounded + 256 * 1024 {
            let (kept, complete) = MigrationRule.boundedHistory(try decodeHistory(history, key: keys.history))
            history = try encode(kept)
            if !complete { defaults.set(false, forKey: keys.historyIsComplete) }
            defaults.set(history.count, forKey: keys.historyBoundedBytes)
        }
        defaults.set(history, forKey: keys.history)
        defaults.removeObject(forKey: keys.recentHistory)
    }

    /// Writes the marks that changed and removes the legacy keys still there: each write may
    /// rewrite the whole defaults file (it does on Linux), so none is made for nothing.
    private func writeMarks(_ state: MigrationState) {
        for mark in RecordedMark.allCases {
            let written = keys.written[mark.index]
            if let value = state[mark] {
                if defaults.string(forKey: written) != value { defaults.set(value, forKey: written) }
            } else if defaults.object(forKey: written) != nil {
                defaults.removeObject(forKey: written)
            }
            for legacy in keys.read[mark.index] where legacy != written && defaults.object(forKey: legacy) != nil {
                defaults.removeObject(forKey: legacy)
            }
        }
        if defaults.object(forKey: keys.historyIsComplete) == nil || defaults.bool(forKey: keys.historyIsComplete) != state.historyIsComplete {
            defaults.set(state.historyIsComplete, forKey: keys.historyIsComplete)
        }
    }

    private func encode<T: Encodable>(_ value: T) throws -> Data {
        do { return try JSONEncoder.migrationRecords.encode(value) } catch {
            throw MigrationStoreError(location: location, problem: .unwritable(String(describing: error)))
        }
    }

    public func withExclusiveAccess<T>(_ body: () throws -> T) throws -> T {
        try resource.withRecords(body)
    }

    public func withExclusiveAccess<T>(toBlock block: String, _ body: (_ alreadyRunning: Bool) throws -> T) throws -> T {
        try resource.withBlock(block, body)
    }

    /// The highest value among `keys`, by its leading numbers; a value with no leading number
    /// wins outright, so that the plan names it instead of quietly passing over it.
    private func highest(of keys: [String]) -> (key: String, value: String)? {
        var best: (key: String, value: String, version: Version)?
        for key in keys {
            guard let value = defaults.string(forKey: key), !value.isEmpty else { continue }
            guard let version = Version(leadingComponentsOf: value) else { return (key, value) }
            if best.map({ version > $0.version }) ?? true { best = (key, value, version) }
        }
        return best.map { ($0.key, $0.value) }
    }
}

/// The `UserDefaults` keys of one domain: what is read for each mark (highest wins), what is
/// written, and where the history goes.
struct UserDefaultsKeys {
    /// Per ``RecordedMark``, in ``RecordedMark/index`` order: every key read, the written one first.
    let read: [[String]]
    /// Per ``RecordedMark``: the key written.
    let written: [String]
    let history, recentHistory, historyBoundedBytes, historyIsComplete: String

    init(domain: String?) {
        guard let domain else {
            read = [
                ["MTMigration.lastMigrationVersion", "Migration.lastMigrationVersion", "Migration.lastVersion", "lastMigrationVersion"],
                ["MTMigration.lastMigrationBuild", "Migration.lastMigrationBuild", "Migration.lastBuild"],
                ["MTMigration.lastAppVersion", "Migration.lastAppVersion"],
                ["MTMigration.lastAppBuild", "Migration.lastAppBuild"],
            ]
            written = read.map { $0[0] }
            history = "MigrationExplorer.history"
            recentHistory = "MigrationExplorer.recentHistory"
            historyBoundedBytes = "MigrationExplorer.historyBoundedBytes"
            historyIsComplete = "MigrationExplorer.historyIsComplete"
            return
        }
        let prefix = "MigrationExplorer.\(domain)."
        written = ["lastMigrationVersion", "lastMigrationBuild", "lastAppVersion", "lastAppBuild"].map { prefix + $0 }
        read = written.map { [$0] }
        history = prefix + "history"
        recentHistory = prefix + "recentHistory"
        historyBoundedBytes = prefix + "historyBoundedBytes"
        historyIsComplete = prefix + "historyIsComplete"
    }
}
