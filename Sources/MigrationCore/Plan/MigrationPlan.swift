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
    /// The declared migrations and hooks the plan is of.
    public let registry: MigrationRegistry
    /// The recorded state the device starts from.
    public let state: MigrationState
    /// The app version (and build) the upgrade goes to.
    public let target: AppTarget
    /// What a fresh install does.
    public let policy: FreshInstallPolicy
    /// Every migration: the version track in ascending order, then the build track, then the
    /// invalid declarations in declaration order.
    public let entries: [PlanEntry]
    /// The migrations a run executes, in the order it executes them.
    public let pending: [PlanEntry]
    /// Every hook, with whether it fires (hooks run after the migrations, version hooks first).
    public let hooks: [HookPlan]
    /// Everything wrong or suspicious in the registry (invalid, duplicate or out-of-order
    /// declarations), all of them, never thrown at the first.
    public let problems: [ValidationProblem]
    /// The recorded marks that are not strict versions, each read as its leading numbers
    /// (`"1.0-beta"` counts as 1.0): the plan holds, but front ends say so.
    public let looseMarks: [LooseMark]
    /// The tracks whose app value differs from the recorded one: their hooks fire, and a run
    /// records the new value.
    public let updatedTracks: [MigrationTrack]
    /// A fresh install under ``FreshInstallPolicy/baseline``: a run records every migration up
    /// to the target as applied without running any.
    public let isBaseline: Bool
    private let history: HistoryIndex
    /// Per track (version, build): the pending migration whose failure holds back the ones above it.
    private let holdingBack: [RegisteredMigration?]

    /// Plans the upgrade of a device in `state` to `target`; nothing runs and nothing is read
    /// or written.
    ///
    /// ```swift
    /// let plan = try MigrationPlan(registry: registry, state: try store.load(), target: try AppTarget(version: "1.0"))
    /// ```
    /// - Throws: ``MigrationStateError`` when the state records a mark that cannot be read as
    ///   a version at all (a loosely written one, like `"2.0b"`, counts as its leading numbers).
    public init(
        registry: MigrationRegistry, state: MigrationState, target: AppTarget,
        policy: FreshInstallPolicy = .runAll
    ) throws(MigrationStateError) {
        let marks = RecordedMarks(state)
        let baseline = MigrationRule.isBaseline(state, policy: policy)
        let history = HistoryIndex(state.history)
        let prior = PriorHistory(state, registry: registry)
        self.history = history
        let migrations = registry.migrations
        var problems: [ValidationProblem] = []
        var invalid: [PlanEntry] = []
        var statuses = [MigrationStatus](repeating: .skipped(.invalidVersion), count: migrations.count)
        var order = RunOrder()

        // Declaration order: invalid versions, versions declared after a higher one, statuses.
        var highest: [RegisteredMigration?] = [nil, nil]
        for migration in migrations {
            guard let version = migration.version else {
                if let error = migration.versionError {
                    problems.append(ValidationProblem(migration: migration, kind: .invalidVersion(error)))
                }
                invalid.append(PlanEntry(migrations, position: migration.id, status: .skipped(.invalidVersion)))
                continue
            }
            let slot = migration.track == .version ? 0 : 1
            if let higher = highest[slot], let higherVersion = higher.version, higherVersion > version {
                problems.append(ValidationProblem(migration: migration, kind: .declaredAfter(higher)))
            } else {
                highest[slot] = migration
            }
            statuses[migration.id] = try MigrationRule.status(
                of: version, since: migration.since, on: migration.track, lastRecord: history.last(migration.track, version),
                marks: marks, prior: prior, target: target, baseline: baseline
            )
            order.add(version, on: migration.track, at: migration.id)
        }

        // Run order; a duplicate follows the first declaration of its version.
        var valid: [PlanEntry] = []
        valid.reserveCapacity(migrations.count)
        var foundDuplicate = false
        for slot in order.slots(of: migrations) {
            if slot.firstOfVersion != slot.position {
                problems.append(ValidationProblem(migration: migrations[slot.position], kind: .duplicate(of: migrations[slot.firstOfVersion])))
                valid.append(PlanEntry(migrations, position: slot.position, status: .skipped(.duplicate)))
                foundDuplicate = true
            } else {
                valid.append(PlanEntry(migrations, position: slot.position, status: statuses[slot.position]))
            }
        }
        if foundDuplicate { problems.sort { $0.migrationID < $1.migrationID } }

        self.registry = registry
        self.state = state
        self.target = target
        self.policy = policy
        valid.append(contentsOf: invalid)
        self.entries = valid
        self.pending = valid.filter { $0.status.willRun }
        // The first failed entry of each track: entries are in run order, so it is the lowest.
        self.holdingBack = [MigrationTrack.version, .build].map { track in
            valid.first { $0.status == .failed && $0.migration.track == track }?.migration
        }
        var updated: [MigrationTrack] = []
        for track in MigrationTrack.allCases where !baseline {
            if MigrationRule.updateHooksFire(recorded: try marks.lastApp(track), current: target.value(on: track)) {
                updated.append(track)
            }
        }
        self.updatedTracks = updated
        self.hooks = registry.hooks.map { hook in
            let step = BlockStep.update(hook.track, hook: hook.title)
            let fires = updated.contains(hook.track)
                && (try? step.isDue(marks: marks, history: state.history, app: target.value(on: hook.track))) == true
            return HookPlan(hook: hook, fires: fires)
        }
        // Appended in place: copying a million problems would touch a million declarations.
        problems.append(contentsOf: ReleaseProblems.find(in: valid, registry: registry, state: state, prior: prior, target: target))
        self.problems = problems
        self.isBaseline = baseline
        self.looseMarks = marks.looseMarks
    }

    /// Whether a run of this plan runs any body: a pending migration or a hook that fires. A
    /// fresh install under ``FreshInstallPolicy/baseline`` runs none; it only records.
    ///
    /// ```swift
    /// if plan.runsAnyBody { /* the app's code, or a manifest's commands, would run */ }
    /// ```
    public var runsAnyBody: Bool { !pending.isEmpty || hooks.contains(where: \.fires) }

    /// Whether a run of this plan writes the records: it has a pending migration, a track
    /// whose new app value (and firing hooks) it records, or a fresh install's baseline.
    /// A run of a plan that changes nothing reads the store once and takes no lock.
    ///
    /// ```swift
    /// if !plan.changesRecords { print("up to date: a run does nothing") }
    /// ```
    public var changesRecords: Bool { isBaseline || !pending.isEmpty || !updatedTracks.isEmpty }

    /// Each pending migration's place in the run, from 1, by ``RegisteredMigration/id``.
    ///
    /// ```swift
    /// plan.runPositions[migration.id]   // 2: it runs second
    /// ```
    public var runPositions: [Int: Int] {
        Dictionary(uniqueKeysWithValues: pending.enumerated().map { ($1.migration.id, $0 + 1) })
    }

    /// The failed migration that holds `entry` back, when `entry` is pending above a migration
    /// of its track whose last run failed: it runs only once that one has succeeded, right
    /// before it in the same run (``MigrationRule/isHeldBack(_:byFailureOf:)``).
    ///
    /// ```swift
    /// if let failed = plan.heldBack(entry) { print("held back until \(failed.declared) succeeds") }
    /// ```
    public func heldBack(_ entry: PlanEntry) -> RegisteredMigration? {
        let slot = switch entry.migration.track {
        case .version: 0
        case .build: 1
        }
        guard entry.status == .pending, let version = entry.migration.version, let failed = holdingBack[slot],
              let failedVersion = failed.version, MigrationRule.isHeldBack(version, byFailureOf: failedVersion) else { return nil }
        return failed
    }

    /// The most recent history record of a migration (its last result, duration and error).
    ///
    /// ```swift
    /// if let record = plan.lastRecord(of: entry.migration), record.outcome == .failed { print(record.error ?? "") }
    /// ```
    public func lastRecord(of migration: RegisteredMigration) -> MigrationRecord? {
        guard let version = migration.version else { return nil }
        return history.last(migration.track, version)
    }
}

/// A migration's identity within a registry: its track and parsed version.
private struct TrackedVersion: Hashable, Sendable {
    let track: MigrationTrack
    let version: Version
}

/// The latest record of each migration in a history.
private struct HistoryIndex: Sendable {
    private var latest: [TrackedVersion: MigrationRecord] = [:]

    /// Indexes the records after the last reset: earlier ones no longer count.
    init(_ history: [MigrationRecord]) {
        let start = history.lastIndex { $0.subject == .reset }.map { $0 + 1 } ?? 0
        for record in history[start...] {
            guard let track = record.subject.track, let text = record.identifier,
                  let version = try? Version(text) else { continue }
            latest[TrackedVersion(track: track, version: version)] = record
        }
    }

    /// The latest record of the migration at `version` on `track`.
    func last(_ track: MigrationTrack, _ version: Version) -> MigrationRecord? {
        latest.isEmpty ? nil : latest[TrackedVersion(track: track, version: version)]
    }
}

extension MigrationRecord.Subject {
    /// The migration track of a migration record; `nil` for hooks.
    var track: MigrationTrack? {
        switch self {
        case .versionMigration: .version
        case .buildMigration: .build
        case .updateHook, .buildUpdateHook, .reset: nil
        }
    }
}
