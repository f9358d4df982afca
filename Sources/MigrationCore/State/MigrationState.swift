import Foundation

/// Everything a store records for one domain: four high-water marks and a history.
///
/// The four marks are MTMigration's own records; the history is this package's extra.
///
/// ```swift
/// var state = MigrationState.freshInstall
/// state.lastMigratedVersion = "1.0"
/// try store.save(state)
/// ```
public struct MigrationState: Sendable, Equatable, Codable {
    /// The version of the last version migration that ran (`MTMigration.lastMigrationVersion`).
    public var lastMigratedVersion: String?
    /// The build of the last build migration that ran (`MTMigration.lastMigrationBuild`).
    public var lastMigratedBuild: String?
    /// The app version seen when update hooks last fired (`MTMigration.lastAppVersion`).
    public var lastAppVersion: String?
    /// The app build seen when build hooks last fired (`MTMigration.lastAppBuild`).
    public var lastAppBuild: String?
    /// What ran, when, for how long and with what result, oldest first.
    public var history: [MigrationRecord]
    /// Whether ``history`` covers every migration since a fresh install. When it does, a
    /// migration at or below the high-water mark that never ran is shown as skipped (out of
    /// order); when it does not (a record imported from MTMigration, a simulated device), it
    /// is assumed to have run.
    public var historyIsComplete: Bool

    public init(
        lastMigratedVersion: String? = nil,
        lastMigratedBuild: String? = nil,
        lastAppVersion: String? = nil,
        lastAppBuild: String? = nil,
        history: [MigrationRecord] = [],
        historyIsComplete: Bool = false
    ) {
        self.lastMigratedVersion = lastMigratedVersion
        self.lastMigratedBuild = lastMigratedBuild
        self.lastAppVersion = lastAppVersion
        self.lastAppBuild = lastAppBuild
        self.history = history
        self.historyIsComplete = historyIsComplete
    }

    /// A device that has never run a migration.
    public static let freshInstall = MigrationState(historyIsComplete: true)

    /// A device that last migrated at `version` (and `build`) with that app version installed;
    /// `nil` for both is a fresh install. Used to simulate an upgrade from any version.
    ///
    /// ```swift
    /// let device = MigrationState.device(at: try Version("0.8"))
    /// ```
    public static func device(at version: Version?, build: Version? = nil) -> MigrationState {
        guard version != nil || build != nil else { return .freshInstall }
        return MigrationState(
            lastMigratedVersion: version?.text,
            lastMigratedBuild: build?.text,
            lastAppVersion: version?.text,
            lastAppBuild: build?.text
        )
    }

    /// No mark is recorded: the app has never run with migrations.
    public var isFreshInstall: Bool {
        lastMigratedVersion == nil && lastMigratedBuild == nil && lastAppVersion == nil && lastAppBuild == nil
    }

    /// The recorded high-water mark of `track`.
    public func lastMigrated(_ track: MigrationTrack) -> String? { self[keyPath: Self.lastMigratedKey(track)] }

    mutating func setLastMigrated(_ track: MigrationTrack, to value: String) { self[keyPath: Self.lastMigratedKey(track)] = value }

    /// The recorded app version (``MigrationTrack/version``) or build (``MigrationTrack/build``)
    /// that update hooks compare against.
    public func lastApp(_ track: MigrationTrack) -> String? { self[keyPath: Self.lastAppKey(track)] }

    mutating func setLastApp(_ track: MigrationTrack, to value: String) { self[keyPath: Self.lastAppKey(track)] = value }

    private static func lastMigratedKey(_ track: MigrationTrack) -> WritableKeyPath<MigrationState, String?> {
        track == .version ? \.lastMigratedVersion : \.lastMigratedBuild
    }

    private static func lastAppKey(_ track: MigrationTrack) -> WritableKeyPath<MigrationState, String?> {
        track == .version ? \.lastAppVersion : \.lastAppBuild
    }
}
