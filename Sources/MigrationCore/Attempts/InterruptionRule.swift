import Foundation

extension MigrationRule {
    /// How many interrupted attempts at one app build hold a migration back, unless a runner or
    /// migrator is told otherwise.
    public static let defaultInterruptionLimit = 3

    /// The attempts of the migration at `version` on `track` that were interrupted: those
    /// recorded in `state` (a run takes its attempt back in the very write that records how
    /// it ended, so what is left was interrupted, or, read while a run holds the migration,
    /// is running now). Oldest first.
    ///
    /// ```swift
    /// MigrationRule.interruptedAttempts(of: try Version("1.0"), on: .version, in: state).count   // 2
    /// ```
    public static func interruptedAttempts(of version: Version, on track: MigrationTrack, in state: MigrationState) -> [MigrationAttempt] {
        state.attempts.filter { $0.isOf(track, version) }.sorted { $0.date < $1.date }
    }

    /// The interrupted attempts that count now toward holding the migration back: since its
    /// last record and since the last reset or `set`, at the app build `app` (its version, for
    /// an app without builds). A new build starts the count afresh: it may hold the fix.
    ///
    /// ```swift
    /// let count = MigrationRule.interruptions(of: version, on: .version, in: state, at: target).count
    /// ```
    public static func interruptions(of version: Version, on track: MigrationTrack, in state: MigrationState, at app: AppTarget) -> [MigrationAttempt] {
        let since = state.history.filter { $0.ends(version, on: track) || $0.subject == .reset }.map(\.date).max() ?? .distantPast
        let key = app.build?.text ?? app.version.text
        return interruptedAttempts(of: version, on: track, in: state).filter { $0.date > since && $0.appKey == key }
    }

    /// Whether `interruptions` interrupted attempts at one build hold a migration back: it is
    /// then not run, and the migrations of its track after it wait behind it, until the app's
    /// build changes or a run is told to retry (`limit` 0: never).
    ///
    /// ```swift
    /// MigrationRule.isHeldBack(interruptions: 3, limit: 3)   // true
    /// ```
    public static func isHeldBack(interruptions: Int, limit: Int) -> Bool {
        limit > 0 && interruptions >= limit
    }
}

extension MigrationRecord {
    /// Whether it records the end of the migration at `version` on `track`: it succeeded or failed.
    func ends(_ version: Version, on track: MigrationTrack) -> Bool {
        subject == track.recordSubject && (outcome == .succeeded || outcome == .failed)
            && identifier.flatMap { try? Version($0) } == version
    }
}
