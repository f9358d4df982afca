import Foundation

/// A store in `UserDefaults`, under MTMigration's own keys, so that an app switching from
/// MTMigration (or from Clafou's Migration) runs nothing twice.
///
/// The default domain uses `MTMigration.lastMigrationVersion`, `MTMigration.lastAppVersion`,
/// `MTMigration.lastMigrationBuild` and `MTMigration.lastAppBuild`, and falls back to Clafou's
/// `lastMigrationVersion` when MTMigration's key is absent. The history lives under
/// `MigrationExplorer.*` keys. A named domain keeps all its records under
/// `MigrationExplorer.<domain>.*`.
///
/// ```swift
/// let defaultsStore = UserDefaultsMigrationStore(defaults: .standard)
/// let databaseStore = UserDefaultsMigrationStore(defaults: .standard, domain: "database")
/// ```
public final class UserDefaultsMigrationStore: MigrationStore, @unchecked Sendable {
    // Safe: UserDefaults is documented as thread-safe; the lock only serialises read-modify-write.
    private let defaults: UserDefaults
    private let keys: Keys
    private let lock = RecursiveLock()
    public let location: String

    public init(defaults: UserDefaults = .standard, domain: String? = nil) {
        self.defaults = defaults
        self.keys = Keys(domain: domain)
        self.location = domain.map { "UserDefaults (\($0))" } ?? "UserDefaults"
    }

    public func load() throws -> MigrationState {
        var state = MigrationState(
            lastMigratedVersion: string(keys.lastMigratedVersion) ?? keys.legacyLastMigratedVersion.flatMap(string),
            lastMigratedBuild: string(keys.lastMigratedBuild),
            lastAppVersion: string(keys.lastAppVersion),
            lastAppBuild: string(keys.lastAppBuild)
        )
        if let data = defaults.data(forKey: keys.history) {
            do { state.history = try JSONDecoder.migrationRecords.decode([MigrationRecord].self, from: data) } catch {
                throw MigrationStoreError(location: "\(location) \(keys.history)", problem: .corrupt(String(describing: error)))
            }
        }
        state.historyIsComplete = defaults.object(forKey: keys.historyIsComplete) as? Bool ?? state.isFreshInstall
        return state
    }

    public func save(_ state: MigrationState) throws {
        let history: Data
        do { history = try JSONEncoder.migrationRecords.encode(state.history) } catch {
            throw MigrationStoreError(location: location, problem: .unwritable(String(describing: error)))
        }
        lock.withLock {
            set(state.lastMigratedVersion, keys.lastMigratedVersion)
            set(state.lastMigratedBuild, keys.lastMigratedBuild)
            set(state.lastAppVersion, keys.lastAppVersion)
            set(state.lastAppBuild, keys.lastAppBuild)
            if let legacy = keys.legacyLastMigratedVersion, state.lastMigratedVersion == nil {
                defaults.removeObject(forKey: legacy)
            }
            defaults.set(history, forKey: keys.history)
            defaults.set(state.historyIsComplete, forKey: keys.historyIsComplete)
        }
    }

    public func withExclusiveAccess<T>(_ body: () throws -> T) rethrows -> T {
        try lock.withLock(body)
    }

    private func string(_ key: String) -> String? {
        guard let value = defaults.string(forKey: key), !value.isEmpty else { return nil }
        return value
    }

    private func set(_ value: String?, _ key: String) {
        if let value { defaults.set(value, forKey: key) } else { defaults.removeObject(forKey: key) }
    }

    /// The keys of one domain.
    struct Keys {
        let lastMigratedVersion, lastMigratedBuild, lastAppVersion, lastAppBuild: String
        let legacyLastMigratedVersion: String?
        let history, historyIsComplete: String

        init(domain: String?) {
            let marks = domain.map { "MigrationExplorer.\($0)." } ?? "MTMigration."
            let extras = domain.map { "MigrationExplorer.\($0)." } ?? "MigrationExplorer."
            lastMigratedVersion = marks + "lastMigrationVersion"
            lastMigratedBuild = marks + "lastMigrationBuild"
            lastAppVersion = marks + "lastAppVersion"
            lastAppBuild = marks + "lastAppBuild"
            legacyLastMigratedVersion = domain == nil ? "lastMigrationVersion" : nil
            history = extras + "history"
            historyIsComplete = extras + "historyIsComplete"
        }
    }
}
