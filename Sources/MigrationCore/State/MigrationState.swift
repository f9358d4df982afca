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
public struct MigrationState: Sendable, Equatable {
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
    /// order); when it does not (a record imported from MTMigration, a simulated or set device,
    /// a baseline), it never ran when its `since` is after the app version the device ran
    /// before its history (a `set` names it; else the recorded app version), or when the replay
    /// of the app's releases up to that version never runs it; otherwise it is assumed to have
    /// run (see ``NeverRan``).
    public var historyIsComplete: Bool
    /// The migrations' recorded starts (see ``MigrationAttempt``), oldest first: with the
    /// history they tell which attempts were interrupted. Read by `load()` of a store that
    /// records them (``RecordsAttempts``), not by `loadMarks()`; empty otherwise.
    public var attempts: [MigrationAttempt] = []
    /// Where a store read each mark (a `UserDefaults` key, a file's field), so that a
    /// diagnostic can name it. Not saved, and not part of equality.
    public var markSources: [RecordedMark: String] = [:]

    /// A state with the given marks and history.
    ///
    /// ```swift
    /// let device = MigrationState(lastMigratedVersion: "0.8", lastAppVersion: "0.8")
    /// try store.save(device)
    /// ```
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

    /// No mark and no history: the app has never run with migrations (a reset leaves a record
    /// in the history, so a reset device is not a fresh install).
    public var isFreshInstall: Bool {
        hasNoMarks && history.isEmpty
    }

    /// None of the four marks is recorded.
    public var hasNoMarks: Bool {
        lastMigratedVersion == nil && lastMigratedBuild == nil && lastAppVersion == nil && lastAppBuild == nil
    }

    /// One of the four marks.
    public subscript(mark: RecordedMark) -> String? {
        get {
            switch mark {
            case .lastMigratedVersion: lastMigratedVersion
            case .lastMigratedBuild: lastMigratedBuild
            case .lastAppVersion: lastAppVersion
            case .lastAppBuild: lastAppBuild
            }
        }
        set {
            switch mark {
            case .lastMigratedVersion: lastMigratedVersion = newValue
            case .lastMigratedBuild: lastMigratedBuild = newValue
            case .lastAppVersion: lastAppVersion = newValue
            case .lastAppBuild: lastAppBuild = newValue
            }
        }
    }

    /// The recorded high-water mark of `track`.
    public func lastMigrated(_ track: MigrationTrack) -> String? { self[.lastMigrated(track)] }

    /// The recorded app version (``MigrationTrack/version``) or build (``MigrationTrack/build``)
    /// that update hooks compare against.
    public func lastApp(_ track: MigrationTrack) -> String? { self[.lastApp(track)] }

    /// Whether the marks, the history, ``historyIsComplete`` and the attempts are equal
    /// (``markSources`` does not count).
    public static func == (lhs: MigrationState, rhs: MigrationState) -> Bool {
        lhs.lastMigratedVersion == rhs.lastMigratedVersion && lhs.lastMigratedBuild == rhs.lastMigratedBuild
            && lhs.lastAppVersion == rhs.lastAppVersion && lhs.lastAppBuild == rhs.lastAppBuild
            && lhs.history == rhs.history && lhs.historyIsComplete == rhs.historyIsComplete && lhs.attempts == rhs.attempts
    }
}

extension MigrationState {
    /// Takes in a step: `marks`' four marks and ``historyIsComplete``, and `records` appended to
    /// the history (what every store's `saveMarks(_:appending:)` writes).
    mutating func takeStep(_ marks: MigrationState, appending records: [MigrationRecord]) {
        for mark in RecordedMark.allCases { self[mark] = marks[mark] }
        historyIsComplete = marks.historyIsComplete
        history.append(contentsOf: records)
    }
}
