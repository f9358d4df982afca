import Foundation

/// The `UserDefaults` keys of one domain: what is read for each mark (highest wins), what is
/// written, and where the history goes; and how the records are read from and written to
/// them, in `UserDefaults` or in a preferences plist alike.
///
/// The history is a JSON list under ``history``; a step adds its record to a short list of
/// recent ones under ``recentHistory`` (each record JSON-encoded on its own), which joins the
/// rest every ``recentLimit`` records. `UserDefaults` keeps a bounded history: every write may
/// rewrite the whole defaults file (it does on Linux), so what a step costs must not grow with
/// the number of migrations already run. Each join (and each full write) keeps what
/// ``MigrationRule/boundedHistory(_:limit:)`` keeps with ``historyLimit``: the latest record
/// of each outcome of each migration and hook, of those the newest ``historyLimit`` and the
/// hook records since the latest reset; when that drops records, the history is marked as no
/// longer complete.
struct UserDefaultsKeys {
    /// Per ``RecordedMark``, in the order of ``RecordedMark/allCases``: every key read, the
    /// written one first.
    private let keysByMark: [[String]]
    let history, recentHistory, historyIsComplete: String
    /// The migrations' recorded starts (see ``MigrationAttempt``): a JSON list.
    let attempts: String
    /// A key earlier releases wrote; removed at the next join.
    let historyBoundedBytes: String

    init(domain: String?) {
        guard let domain else {
            keysByMark = [
                ["MTMigration.lastMigrationVersion", "Migration.lastMigrationVersion", "Migration.lastVersion", "lastMigrationVersion"],
                ["MTMigration.lastMigrationBuild", "Migration.lastMigrationBuild", "Migration.lastBuild"],
                ["MTMigration.lastAppVersion", "Migration.lastAppVersion"],
                ["MTMigration.lastAppBuild", "Migration.lastAppBuild"],
            ]
            history = "MigrationExplorer.history"
            recentHistory = "MigrationExplorer.recentHistory"
            historyBoundedBytes = "MigrationExplorer.historyBoundedBytes"
            historyIsComplete = "MigrationExplorer.historyIsComplete"
            attempts = "MigrationExplorer.attempts"
            return
        }
        let prefix = "MigrationExplorer.\(domain)."
        keysByMark = [[prefix + "lastMigrationVersion"], [prefix + "lastMigrationBuild"], [prefix + "lastAppVersion"], [prefix + "lastAppBuild"]]
        history = prefix + "history"
        recentHistory = prefix + "recentHistory"
        historyBoundedBytes = prefix + "historyBoundedBytes"
        historyIsComplete = prefix + "historyIsComplete"
        attempts = prefix + "attempts"
    }

    /// Every key read for `mark`, the written one first.
    func read(_ mark: RecordedMark) -> [String] { keysByMark[mark.index] }

    /// The key written for `mark`.
    func written(_ mark: RecordedMark) -> String { read(mark)[0] }

    /// The marks in `values` under older spellings of the keys (an earlier MTMigration's, a
    /// look-alike library's), with their values: every write removes them, since reading takes
    /// the highest mark of every spelling and one left behind could outrank what was written.
    func olderKeys(in values: some PreferenceValues) -> [(key: String, value: String)] {
        RecordedMark.allCases.flatMap { mark in
            read(mark).dropFirst().compactMap { key in values.object(forKey: key).map { (key, "\($0)") } }
        }
    }

    /// The named domains whose keys (``init(domain:)``) appear among `keys`, sorted.
    static func namedDomains(in keys: some Sequence<String>) -> [String] {
        let fields = ["lastMigrationVersion", "lastMigrationBuild", "lastAppVersion", "lastAppBuild", "history", "historyIsComplete", "attempts"]
        let prefix = "MigrationExplorer."
        var domains: Set<String> = []
        for key in keys where key.hasPrefix(prefix) {
            let rest = key.dropFirst(prefix.count)
            guard let field = fields.first(where: { rest.hasSuffix("." + $0) }) else { continue }
            let domain = rest.dropLast(field.count + 1)
            if !domain.isEmpty { domains.insert(String(domain)) }
        }
        return domains.sorted()
    }

    /// The four marks in `values`, each the highest any library recorded: what a launch reads.
    /// No sources (see ``key(of:in:)``), no history, and ``MigrationState/historyIsComplete``
    /// is left unread (false; see ``isHistoryComplete(in:)``), for the launch (see
    /// ``LaunchCheck``).
    func marks(in values: some PreferenceValues) -> MigrationState {
        var state = MigrationState()
        for mark in RecordedMark.allCases { state[mark] = highest(of: read(mark), in: values)?.value }
        return state
    }

    /// The key whose value ``marks(in:)`` reads for `mark` from `values`; `nil` when none has one.
    func key(of mark: RecordedMark, in values: some PreferenceValues) -> String? {
        highest(of: read(mark), in: values)?.key
    }

    /// Whether the history in `values` covers every migration since a fresh install, as recorded.
    func isHistoryComplete(in values: some PreferenceValues) -> Bool {
        values.object(forKey: historyIsComplete) as? Bool ?? false
    }

    /// The marks and the history in `values`.
    /// - Throws: ``MigrationStoreError`` (corrupt, at `location`) when the history cannot be read.
    func state(in values: some PreferenceValues, location: String, source: (String) -> String) throws -> MigrationState {
        var state = marks(in: values)
        for mark in RecordedMark.allCases { state.markSources[mark] = key(of: mark, in: values).map(source) }
        state.history = try storedHistory(in: values, location: location)
        state.historyIsComplete = values.object(forKey: historyIsComplete) as? Bool ?? state.isFreshInstall
        state.attempts = try storedAttempts(in: values, location: location)
        return state
    }

    /// The attempts in `values`, oldest first.
    /// - Throws: ``MigrationStoreError`` (corrupt, at `location`) when they cannot be read.
    func storedAttempts(in values: some PreferenceValues, location: String) throws -> [MigrationAttempt] {
        guard let stored = values.object(forKey: attempts) else { return [] }
        do {
            guard let data = stored as? Data else { throw HistoryError.notData }
            return try JSONDecoder.migrationRecords.decode([MigrationAttempt].self, from: data)
        } catch {
            throw MigrationStoreError(location: "\(location) \(attempts)", problem: .corrupt(LegacyDocument.describe(error)))
        }
    }

    /// Writes `list` as the attempts in `values`; none removes the key.
    /// - Throws: ``MigrationStoreError`` (unwritable, at `location`) when they cannot be encoded.
    func write(attempts list: [MigrationAttempt], to values: some PreferenceValues, location: String) throws {
        guard !list.isEmpty else { return values.object(forKey: attempts) == nil ? () : values.removeObject(forKey: attempts) }
        values.set(try encode(list, location: location), forKey: attempts)
    }

    /// The most history records a domain keeps in `UserDefaults` (besides the hook records
    /// since the latest reset, and up to ``recentLimit`` recent ones not joined yet).
    static let historyLimit = 256
    /// How many recent records a step adds to before they join the rest of the history.
    static let recentLimit = 64

    /// Writes `state` into `values`: each mark under MTMigration's key (removing the other
    /// libraries' keys, now folded in), the history, bounded (see the type's summary), under its own.
    /// - Throws: ``MigrationStoreError`` (unwritable, at `location`) when the history cannot be encoded.
    func write(_ state: MigrationState, to values: some PreferenceValues, location: String) throws {
        var state = state
        let (kept, complete) = MigrationRule.boundedHistory(state.history, limit: Self.historyLimit)
        let encodedHistory = try encode(kept, location: location)
        state.historyIsComplete = state.historyIsComplete && complete
        writeMarks(state, to: values)
        values.set(encodedHistory, forKey: history)
        values.removeObject(forKey: recentHistory)
        try write(attempts: state.attempts, to: values, location: location)
    }

    /// Writes the marks of `state` (its history is not read) and adds `records` to the recent
    /// ones; every ``recentLimit``, they join the rest, bounded (see the type's summary).
    /// - Throws: ``MigrationStoreError`` at `location` when a record cannot be encoded or the
    ///   stored history cannot be read.
    func append(_ state: MigrationState, records: [MigrationRecord], to values: some PreferenceValues, location: String) throws {
        let encoded = try records.map { try encode($0, location: location) }
        let recent = (values.object(forKey: recentHistory) as? [Data] ?? []) + encoded
        guard recent.count >= Self.recentLimit else {
            writeMarks(state, to: values)
            return values.set(recent, forKey: recentHistory)
        }
        var joined = state
        joined.history = try storedHistory(in: values, location: location) + records
        joined.attempts = try storedAttempts(in: values, location: location)
        try write(joined, to: values, location: location)
        if values.object(forKey: historyBoundedBytes) != nil { values.removeObject(forKey: historyBoundedBytes) }
    }

    /// The history in `values`: the joined records, then the recent ones.
    private func storedHistory(in values: some PreferenceValues, location: String) throws -> [MigrationRecord] {
        var records: [MigrationRecord] = []
        if let stored = values.object(forKey: history) {
            records = try decodeHistory(stored as? Data, key: history, location: location)
        }
        if let stored = values.object(forKey: recentHistory) {
            guard let recent = stored as? [Data] else {
                throw MigrationStoreError(location: "\(location) \(recentHistory)", problem: .corrupt("not a list of data"))
            }
            for record in recent {
                records += try decodeHistory(Data("[".utf8) + record + Data("]".utf8), key: recentHistory, location: location)
            }
        }
        return records
    }

    /// Writes the marks that changed and removes the legacy keys still there: each write to
    /// `UserDefaults` may rewrite its whole file (it does on Linux), so none is made for nothing.
    private func writeMarks(_ state: MigrationState, to values: some PreferenceValues) {
        for mark in RecordedMark.allCases {
            let key = written(mark)
            if let value = state[mark] {
                if values.string(forKey: key) != value { values.set(value, forKey: key) }
            } else if values.object(forKey: key) != nil {
                values.removeObject(forKey: key)
            }
            for legacy in read(mark) where legacy != key && values.object(forKey: legacy) != nil {
                values.removeObject(forKey: legacy)
            }
        }
        if values.object(forKey: historyIsComplete) as? Bool != state.historyIsComplete {
            values.set(state.historyIsComplete, forKey: historyIsComplete)
        }
    }

    private func decodeHistory(_ data: Data?, key: String, location: String) throws -> [MigrationRecord] {
        do {
            guard let data else { throw HistoryError.notData }
            return try JSONDecoder.migrationRecords.decode([MigrationRecord].self, from: data)
        } catch {
            throw MigrationStoreError(location: "\(location) \(key)", problem: .corrupt(LegacyDocument.describe(error)))
        }
    }

    private func encode<T: Encodable>(_ value: T, location: String) throws -> Data {
        do { return try JSONEncoder.migrationLines.encode(value) } catch {
            throw MigrationStoreError(location: location, problem: .unwritable(String(describing: error)))
        }
    }

    /// The highest value among `keys`, by its leading numbers; a value with no leading number
    /// wins outright, so that the plan names it instead of quietly passing over it.
    private func highest(of keys: [String], in values: some PreferenceValues) -> (key: String, value: String)? {
        var best: (key: String, value: String, version: Version)?
        for key in keys {
            guard let value = values.string(forKey: key), !value.isEmpty else { continue }
            guard let version = Version(leadingComponentsOf: value) else { return (key, value) }
            if best.map({ version > $0.version }) ?? true { best = (key, value, version) }
        }
        return best.map { ($0.key, $0.value) }
    }

    private enum HistoryError: Error, CustomStringConvertible {
        case notData
        var description: String { "not data" }
    }
}
