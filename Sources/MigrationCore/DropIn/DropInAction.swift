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
        let record = switch outcome {
        case .success(let duration):
            MigrationRecord(subject: subject, identifier: identifier, title: callName, date: Date(),
                            duration: duration, outcome: .succeeded)
        case .failure(let error):
            MigrationRecord(subject: subject, identifier: identifier, title: callName, date: Date(),
                            duration: 0, outcome: .failed, error: String(describing: error))
        }
        next.history.append(record)
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
