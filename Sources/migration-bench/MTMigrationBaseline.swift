import Foundation

/// What MTMigration does on every `migrateToVersion:block:` call: read the last migrated
/// version from `UserDefaults`, then compare strings with `.numeric` against it and against
/// the app version. The yardstick for the drop-in API's cost when there is nothing to do.
struct MTMigrationBaseline {
    let defaults: UserDefaults
    let appVersion: String

    func migrateToVersion(_ version: String, _ block: () -> Void) {
        let last = defaults.string(forKey: "MTMigration.lastMigrationVersion") ?? ""
        if version.compare(last, options: .numeric) == .orderedDescending,
           version.compare(appVersion, options: .numeric) != .orderedDescending {
            block()
            defaults.set(version, forKey: "MTMigration.lastMigrationVersion")
        }
    }
}
