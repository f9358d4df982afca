import Foundation

/// One drop-in call: a migration block or an update block, on one track.
enum DropInAction {
    case migration(MigrationTrack, Version)
    case update(MigrationTrack)

    var track: MigrationTrack {
        switch self {
        case .migration(let track, _), .update(let track): track
        }
    }

    /// Whether the block is due, by ``MigrationRule``.
    func isDue(_ marks: RecordedMarks, target: AppTarget) -> Bool {
        switch self {
        case .migration(let track, let version):
            MigrationRule.shouldRun(version, lastMigrated: marks.lastMigrated(track), app: target.value(on: track))
        case .update(let track):
            MigrationRule.updateHooksFire(recorded: marks.lastApp(track), current: target.value(on: track))
        }
    }

    /// The state after the block ran (or threw).
    func recording(_ outcome: Result<Double, any Error>, in state: MigrationState, target: AppTarget) -> MigrationState {
        var next = state
        let identifier: String?
        switch self {
        case .migration(let track, let version):
            identifier = version.text
            if case .success = outcome { next.setLastMigrated(track, to: version.text) }
        case .update(let track):
            identifier = nil
            if case .success = outcome, let value = target.value(on: track) { next.setLastApp(track, to: value.text) }
        }
        let subject: MigrationRecord.Subject = switch self {
        case .migration(let track, _): track.recordSubject
        case .update(let track): track.hookSubject
        }
        next.history.append(MigrationRecord(
            subject: subject, identifier: identifier, title: callName, date: Date(),
            duration: (try? outcome.get()) ?? 0,
            outcome: (try? outcome.get()) == nil ? .failed : .succeeded,
            error: { if case .failure(let error) = outcome { String(describing: error) } else { nil } }()
        ))
        return next
    }

    /// The drop-in call's name, as it appears in diagnostics and history.
    var callName: String {
        switch self {
        case .migration(.version, let version): "migrateToVersion(\"\(version.text)\")"
        case .migration(.build, let build): "migrateToBuild(\"\(build.text)\")"
        case .update(.version): "applicationUpdateBlock"
        case .update(.build): "buildNumberUpdateBlock"
        }
    }
}
