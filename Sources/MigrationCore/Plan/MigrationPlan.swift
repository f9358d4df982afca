/// What an upgrade will do: every migration with its status, the order pending ones run in,
/// which hooks fire, and every problem with the registry. A pure value, computed from a
/// registry, a recorded state and a target; nothing runs.
///
/// ```swift
/// let plan = try MigrationPlan(registry: registry, state: .device(at: try Version("0.8")),
///                              target: try AppTarget(version: "1.0"))
/// for entry in plan.pending { print(entry.migration.declared, entry.migration.title) }
/// ```
public struct MigrationPlan: Sendable {
    public let registry: MigrationRegistry
    public let state: MigrationState
    public let target: AppTarget
    public let policy: FreshInstallPolicy
    /// Every migration: the version track in ascending order, then the build track, then the
    /// invalid declarations in declaration order.
    public let entries: [PlanEntry]
    /// The migrations a run executes, in the order it executes them.
    public let pending: [PlanEntry]
    /// Every hook, with whether it fires (hooks run after the migrations, version hooks first).
    public let hooks: [HookPlan]
    public let problems: [ValidationProblem]
    /// The tracks whose app value differs from the recorded one: their hooks fire, and a run
    /// records the new value.
    public let updatedTracks: [MigrationTrack]
    /// A fresh install under ``FreshInstallPolicy/baseline``: a run records every migration up
    /// to the target as applied without running any.
    public let isBaseline: Bool

    /// Plans an upgrade.
    /// - Throws: ``MigrationStateError`` when the state records a mark that is not a version.
    public init(
        registry: MigrationRegistry, state: MigrationState, target: AppTarget,
        policy: FreshInstallPolicy = .runAll
    ) throws(MigrationStateError) {
        let marks = try RecordedMarks(state)
        let baseline = policy == .baseline && state.isFreshInstall
        let history = HistoryIndex(state.history)
        var firstDeclared: [MigrationTrack: [Version: RegisteredMigration]] = [:]
        var highestDeclared: [MigrationTrack: RegisteredMigration] = [:]
        var problems: [ValidationProblem] = []
        var valid: [PlanEntry] = []
        var invalid: [PlanEntry] = []

        for migration in registry.migrations {
            let version: Version
            switch migration.parsed {
            case .failure(let error):
                problems.append(.init(severity: .error, migrationID: migration.id,
                                      message: "\(migration.label): \(error)"))
                invalid.append(PlanEntry(migration: migration, status: .skipped(.invalidVersion), lastRecord: nil))
                continue
            case .success(let parsed):
                version = parsed
            }
            let track = migration.track
            let record = history.last(track, version)
            if let first = firstDeclared[track]?[version] {
                problems.append(.init(severity: .error, migrationID: migration.id,
                                      message: "\(migration.label) duplicates \(first.label); only the first one counts"))
                valid.append(PlanEntry(migration: migration, status: .skipped(.duplicate), lastRecord: nil))
                continue
            }
            firstDeclared[track, default: [:]][version] = migration
            if let highest = highestDeclared[track], let highestVersion = highest.version, highestVersion > version {
                problems.append(.init(
                    severity: .warning, migrationID: migration.id,
                    message: "\(migration.label) is declared after \(highest.label); it runs in version order here, where MTMigration would never run it"
                ))
            } else {
                highestDeclared[track] = migration
            }
            let status = Self.status(
                of: version, on: track, record: record, marks: marks, state: state, target: target,
                baseline: baseline
            )
            valid.append(PlanEntry(migration: migration, status: status, lastRecord: record))
        }

        valid.sort(by: Self.runsBefore)
        self.registry = registry
        self.state = state
        self.target = target
        self.policy = policy
        self.entries = valid + invalid
        self.pending = valid.filter { $0.status.willRun }
        let updated = baseline ? [] : MigrationTrack.allCases.filter { track in
            MigrationRule.updateHooksFire(recorded: marks.lastApp[track], current: target.value(on: track))
        }
        self.updatedTracks = updated
        self.hooks = registry.hooks.map { HookPlan(hook: $0, fires: updated.contains($0.track)) }
        self.problems = problems
        self.isBaseline = baseline
    }

    private static func status(
        of version: Version, on track: MigrationTrack, record: MigrationRecord?, marks: RecordedMarks,
        state: MigrationState, target: AppTarget, baseline: Bool
    ) -> MigrationStatus {
        let app = target.value(on: track)
        if baseline {
            return app.map { version <= $0 } == true ? .applied : .skipped(.aboveAppVersion)
        }
        let last = marks.lastMigrated[track]
        if MigrationRule.shouldRun(version, lastMigrated: last, app: app) {
            if let record, record.outcome == .failed { return .failed(record.error ?? "failed") }
            return .pending
        }
        if let last, version <= last {
            let ran = record.map { $0.outcome != .failed } ?? false
            return ran || !state.historyIsComplete ? .applied : .skipped(.outOfOrder)
        }
        return .skipped(.aboveAppVersion)
    }

    /// Run order: the version track before the build track, each in ascending order.
    private static func runsBefore(_ left: PlanEntry, _ right: PlanEntry) -> Bool {
        if left.migration.track != right.migration.track { return left.migration.track == .version }
        guard let leftVersion = left.migration.version, let rightVersion = right.migration.version else { return false }
        if leftVersion != rightVersion { return leftVersion < rightVersion }
        return left.migration.id < right.migration.id
    }
}

extension RegisteredMigration {
    /// "version 0.9 "Add GUIDs"" — how problems and reports name a migration.
    public var label: String { "\(track) \(declared) \"\(title)\"" }
}

/// The latest record of each migration in a history, by track and parsed version.
private struct HistoryIndex {
    private var latest: [MigrationTrack: [Version: MigrationRecord]] = [:]

    init(_ history: [MigrationRecord]) {
        for record in history {
            guard let track = record.subject.track, let text = record.identifier,
                  let version = try? Version(text) else { continue }
            latest[track, default: [:]][version] = record
        }
    }

    func last(_ track: MigrationTrack, _ version: Version) -> MigrationRecord? {
        latest[track]?[version]
    }
}

extension MigrationRecord.Subject {
    /// The migration track of a migration record; `nil` for hooks.
    var track: MigrationTrack? {
        switch self {
        case .versionMigration: .version
        case .buildMigration: .build
        case .updateHook, .buildUpdateHook: nil
        }
    }
}
