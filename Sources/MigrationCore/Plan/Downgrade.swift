/// A recorded mark above the app's own version: the device last ran a newer release than the
/// one installed now. Nothing runs backwards; migrations between the two versions stay
/// applied, and their data stays as the newer release left it.
///
/// ```swift
/// let plan = try MigrationPlan(registry: registry, state: .device(at: try Version("1.1")),
///                              target: try AppTarget(version: "1.0"))
/// plan.downgrades   // [version: recorded 1.1, app 1.0]
/// ```
public struct Downgrade: Sendable, Equatable, CustomStringConvertible {
    /// The track (version or build) on which the device is ahead of the app.
    public let track: MigrationTrack
    /// The highest mark recorded on the track (last migrated or last app value).
    public let recorded: Version
    /// The app's value on the track, below ``recorded``.
    public let app: Version

    /// A downgrade on `track` from `recorded` to `app`.
    ///
    /// ```swift
    /// let downgrade = Downgrade(track: .version, recorded: try Version("1.2"), app: try Version("1.0"))
    /// ```
    public init(track: MigrationTrack, recorded: Version, app: Version) {
        self.track = track
        self.recorded = recorded
        self.app = app
    }

    /// "downgrade: the device recorded 1.2, the app is 1.0" (builds: "… recorded build 120,
    /// the app is build 100").
    public var description: String {
        let name = track == .build ? "build " : ""
        return "downgrade: the device recorded \(name)\(recorded.text), the app is \(name)\(app.text)"
    }
}

extension MigrationPlan {
    /// Each track whose recorded marks are above the target: at most one per track. Marks
    /// are read as everywhere else (a loose `2.0b` counts as 2.0); unusable ones are left to
    /// the plan's own checks.
    public var downgrades: [Downgrade] {
        MigrationTrack.allCases.compactMap { track in
            guard let app = target.value(on: track) else { return nil }
            let marks = RecordedMarks(state)
            let recorded = [try? marks.lastMigrated(track), try? marks.lastApp(track)].compactMap { $0 ?? nil }.max()
            guard let recorded, recorded > app else { return nil }
            return Downgrade(track: track, recorded: recorded, app: app)
        }
    }
}
