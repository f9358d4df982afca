/// One block that must run exactly once: a migration, an update hook of a registry, or a
/// drop-in update block.
enum BlockStep: Sendable {
    case migration(MigrationTrack, Version)
    /// `hook` is a registry hook's title; `nil` is a drop-in update block, which records the
    /// app version as soon as it succeeds (MTMigration's behaviour).
    case update(MigrationTrack, hook: String?)

    var track: MigrationTrack {
        switch self {
        case .migration(let track, _), .update(let track, _): track
        }
    }

    /// The name its exclusion goes by: one block, one lock.
    var lockKey: String {
        switch self {
        case .migration(let track, let version): "\(track) \(version.components.map(String.init).joined(separator: "."))"
        case .update(let track, let hook): "update \(track) \(hook ?? "")"
        }
    }

    /// Whether it is a migration (which records its attempts), not an update block.
    var isMigration: Bool {
        if case .migration = self { return true }
        return false
    }

    /// Whether deciding needs the history (registry hooks, which are recorded one by one).
    var needsHistory: Bool {
        if case .update(_, hook: .some) = self { return true }
        return false
    }

    /// Whether it is due, by ``MigrationRule``, on a device with `marks` and `history` (read only
    /// for registry hooks) with the app at `app`.
    func isDue(
        marks: RecordedMarks, history: @autoclosure () -> [MigrationRecord], app: Version?
    ) throws(MigrationStateError) -> Bool {
        switch self {
        case .migration(let track, let version):
            return try marks.shouldRun(version, on: track, app: app)
        case .update(let track, let hook):
            guard MigrationRule.updateHooksFire(recorded: try marks.lastApp(track), current: app), let app else { return false }
            return hook.map { !MigrationRule.hookRan($0, on: track, for: app, in: history()) } ?? true
        }
    }

    var recordSubject: MigrationRecord.Subject {
        switch self {
        case .migration(let track, _): track.recordSubject
        case .update(let track, _): track.hookSubject
        }
    }
}
