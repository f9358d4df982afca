/// The rules of MTMigration, in one place. Every plan, run, dry-run, simulation and the
/// drop-in ``Migrator`` ask these functions; nothing else decides what runs.
public enum MigrationRule {
    /// Whether a migration at `version` runs on a device whose high-water mark is
    /// `lastMigrated` (`nil`: nothing recorded) with the app at `app` (`nil`: unknown).
    ///
    /// It runs when `lastMigrated < version ≤ app`; with nothing recorded, every version up to
    /// the app's runs; a version above the app's never does.
    ///
    /// ```swift
    /// MigrationRule.shouldRun(try Version("1.10"), lastMigrated: try Version("1.9"), app: try Version("2.0")) // true
    /// ```
    @inlinable
    public static func shouldRun(_ version: Version, lastMigrated: Version?, app: Version?) -> Bool {
        guard let app, version <= app else { return false }
        guard let lastMigrated else { return true }
        return version > lastMigrated
    }

    /// Whether update hooks fire: the recorded app version (or build) differs from the current
    /// one, a fresh install included. With no current value (an app without builds) they don't.
    ///
    /// ```swift
    /// MigrationRule.updateHooksFire(recorded: nil, current: try Version("1.0")) // true: first launch
    /// ```
    @inlinable
    public static func updateHooksFire(recorded: Version?, current: Version?) -> Bool {
        guard let current else { return false }
        return recorded != current
    }
}
