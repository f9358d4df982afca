/// A migration that did not run because earlier attempts of it were interrupted
/// ``MigrationRule/defaultInterruptionLimit`` times (or a limit of the runner's) at this app
/// build: the process died inside it each time, so running it again would likely kill this
/// launch too. The other track goes on; this one waits behind it until the app's build
/// changes (a new build may hold the fix) or a run retries it.
///
/// ```swift
/// for held in report.interruptedHoldBacks {
///     telemetry.send("migration \(held.version) held back after \(held.attempts.count) interrupted attempts")
/// }
/// ```
public struct InterruptedHoldBack: Error, Sendable, Equatable, CustomStringConvertible {
    /// The migration's track.
    public let track: MigrationTrack
    /// The migration's version (or build).
    public let version: Version
    /// Its interrupted attempts that counted, oldest first, each with its date and app build.
    public let attempts: [MigrationAttempt]

    /// A hold-back of the migration at `version` on `track`, for its interrupted `attempts`.
    ///
    /// ```swift
    /// let held = InterruptedHoldBack(track: .version, version: try Version("1.0"), attempts: attempts)
    /// ```
    public init(track: MigrationTrack, version: Version, attempts: [MigrationAttempt]) {
        self.track = track
        self.version = version
        self.attempts = attempts
    }

    /// "interrupted 3 times at build 120, held back".
    public var description: String {
        let times = attempts.count == 1 ? "once" : "\(attempts.count) times"
        let app = attempts.last?.appName.map { " at \($0)" } ?? ""
        return "interrupted \(times)\(app), held back"
    }
}
