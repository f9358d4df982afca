import Foundation

/// A migration's start, recorded durably before its body runs, and taken back in the same
/// write as the migration's record (it succeeded or failed), or when it is cancelled. An
/// attempt still recorded when the next run takes the migration was **interrupted**: the
/// process died inside the body (killed, crashed, out of memory, stopped by a watchdog). An
/// attempt never makes a migration count as applied.
///
/// ```swift
/// for attempt in try store.load().attempts {
///     print(attempt.track, attempt.identifier, attempt.title, attempt.appBuild ?? "-", attempt.date)
/// }
/// ```
public struct MigrationAttempt: Sendable, Equatable {
    /// The migration's track.
    public var track: MigrationTrack
    /// The migration's version (or build) as declared.
    public var identifier: String
    /// The migration's title.
    public var title: String
    /// The app version the attempt ran under.
    public var appVersion: String?
    /// The app build the attempt ran under; `nil` for an app without builds.
    public var appBuild: String?
    /// When it started.
    public var date: Date

    /// An attempt, as a run records it before a body.
    ///
    /// ```swift
    /// let attempt = MigrationAttempt(track: .version, identifier: "1.0", title: "Import the archive",
    ///                                appVersion: "1.0", appBuild: "120", date: Date())
    /// ```
    public init(track: MigrationTrack, identifier: String, title: String, appVersion: String?, appBuild: String?, date: Date) {
        self.track = track
        self.identifier = identifier
        self.title = title
        self.appVersion = appVersion
        self.appBuild = appBuild
        self.date = date
    }

    /// What its app is called by in messages: `build 120`, or `version 1.0` for an app
    /// without builds; `nil` when neither is known.
    public var appName: String? {
        if let appBuild { return "build \(appBuild)" }
        return appVersion.map { "version \($0)" }
    }

    /// Whether it is an attempt of the migration at `identifier` on `track`, compared as
    /// versions (`1.0` and `1.0.0` are one migration).
    func isOf(_ track: MigrationTrack, _ version: Version) -> Bool {
        self.track == track && (try? Version(identifier)) == version
    }

    /// Whether it is `other` as a store gave it back: the same migration and app, started at
    /// the same millisecond (stores keep the start to the millisecond).
    func matches(_ other: MigrationAttempt) -> Bool {
        track == other.track && identifier == other.identifier && appVersion == other.appVersion && appBuild == other.appBuild
            && abs(date.timeIntervalSince(other.date)) < 0.001
    }

    /// The app it ran under, as the hold-back rule compares it: the build, else the version.
    var appKey: String? { appBuild ?? appVersion }
}
