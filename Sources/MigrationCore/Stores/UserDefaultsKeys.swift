import Foundation

/// The `UserDefaults` keys of one domain: what is read for each mark (highest wins), what is
/// written, and where the history goes; and how the records are read from and written to
/// them, in `UserDefaults` or in a preferences plist alike.
struct UserDefaultsKeys {
    /// Per ``RecordedMark``, in ``RecordedMark/index`` order: every key read, the written one first.
    let read: [[String]]
    /// Per ``RecordedMark``: the key written.
    let written: [String]
    let history, historyIsComplete: String

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
            historyIsComplete = "MigrationExplorer.historyIsComplete"
            return
        }
        let prefix = "MigrationExplorer.\(domain)."
        written = ["lastMigrationVersion", "lastMigrationBuild", "lastAppVersion", "lastAppBuild"].map { prefix + $0 }
        read = written.map { [$0] }
        history = prefix + "history"
        historyIsComplete = prefix + "historyIsComplete"
    }

    /// The named domains whose keys (``init(domain:)``) appear among `keys`, sorted.
    static func namedDomains(in keys: some Sequence<String>) -> [String] {
        let fields = ["lastMigrationVersion", "lastMigrationBuild", "lastAppVersion", "lastAppBuild", "history", "historyIsComplete"]
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

    /// The four marks in `values`, each the highest any library recorded, with where it was
    /// read (`source` names a key for people); no history.
    func marks(in values: some PreferenceValues, source: (String) -> String) -> MigrationState {
        var state = MigrationState()
        for mark in RecordedMark.allCases {
            guard let (key, value) = highest(of: read[mark.index], in: values) else { continue }
            state[mark] = value
            state.markSources[mark] = source(key)
        }
        state.historyIsComplete = values.object(forKey: historyIsComplete) as? Bool ?? false
        return state
    }

    /// The marks and the history in `values`.
    /// - Throws: ``MigrationStoreError`` (corrupt, at `location`) when the history cannot be read.
    func state(in values: some PreferenceValues, location: String, source: (String) -> String) throws -> MigrationState {
        var state = marks(in: values, source: source)
        if let stored = values.object(forKey: history) {
            do {
                guard let data = stored as? Data else { throw HistoryError.notData }
                state.history = try JSONDecoder.migrationRecords.decode([MigrationRecord].self, from: data)
            } catch {
                throw MigrationStoreError(location: "\(location) \(history)", problem: .corrupt(String(describing: error)))
            }
        }
        state.historyIsComplete = values.object(forKey: historyIsComplete) as? Bool ?? state.isFreshInstall
        return state
    }

    /// Writes `state` into `values`: each mark under MTMigration's key (removing the other
    /// libraries' keys, now folded in), the history under its own.
    /// - Throws: ``MigrationStoreError`` (unwritable, at `location`) when the history cannot be encoded.
    func write(_ state: MigrationState, to values: some PreferenceValues, location: String) throws {
        let encodedHistory: Data
        do { encodedHistory = try JSONEncoder.migrationRecords.encode(state.history) } catch {
            throw MigrationStoreError(location: location, problem: .unwritable(String(describing: error)))
        }
        for mark in RecordedMark.allCases {
            let key = written[mark.index]
            if let value = state[mark] { values.set(value, forKey: key) } else { values.removeObject(forKey: key) }
            for legacy in read[mark.index] where legacy != key { values.removeObject(forKey: legacy) }
        }
        values.set(encodedHistory, forKey: history)
        values.set(state.historyIsComplete, forKey: historyIsComplete)
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
