import Foundation

/// Plans, runs and dry-runs a registry against a store, for one app target.
///
/// A run executes the plan's pending migrations in order and then the hooks that fire,
/// records each success as soon as it finishes, and stops at the first failure (which stays
/// pending; everything before it stays recorded). A dry-run walks exactly the same steps
/// without running a body or writing anything.
///
/// ```swift
/// let runner = MigrationRunner(registry: registry, target: try AppTarget(version: "1.0"))
/// let preview = try runner.dryRun(store: store)   // what would run, in order
/// let report = try runner.run(store: store)        // run it
/// ```
public struct MigrationRunner: Sendable {
    public let registry: MigrationRegistry
    public let target: AppTarget
    public let policy: FreshInstallPolicy

    public init(registry: MigrationRegistry, target: AppTarget, policy: FreshInstallPolicy = .runAll) {
        self.registry = registry
        self.target = target
        self.policy = policy
    }

    /// The plan for a device in `state`.
    public func plan(_ state: MigrationState) throws(MigrationStateError) -> MigrationPlan {
        try MigrationPlan(registry: registry, state: state, target: target, policy: policy)
    }

    /// The plan for the device recorded in `store`.
    /// - Throws: ``MigrationStoreError`` or ``MigrationStateError``.
    public func plan(store: any MigrationStore) throws -> MigrationPlan {
        try plan(store.load())
    }

    /// Runs the pending migrations and firing hooks, holding the store's lock throughout.
    ///
    /// A body that throws ends the run; that is reported, not thrown.
    /// - Throws: ``MigrationStoreError`` or ``MigrationStateError`` when the store cannot be
    ///   read or locked: then nothing ran.
    public func run(store: any MigrationStore, observer: (RunEvent) -> Void = { _ in }) throws -> RunReport {
        try store.withExclusiveAccess {
            try execute(plan(store.load()), store: store, observer: observer)
        }
    }

    /// What ``run(store:observer:)`` would do now, without running or writing anything.
    public func dryRun(store: any MigrationStore) throws -> RunReport {
        try dryRun(store.load())
    }

    /// A dry-run for a device in `state`.
    public func dryRun(_ state: MigrationState) throws(MigrationStateError) -> RunReport {
        try execute(plan(state), store: nil, observer: { _ in })
    }

    /// A sandbox that starts as a device that last migrated at `from` (and `fromBuild`); `nil`
    /// for both is a fresh install. Plan, dry-run or run it like any store.
    ///
    /// ```swift
    /// let sandbox = runner.simulate(from: try Version("0.8"))
    /// let report = try runner.run(store: sandbox)
    /// ```
    public func simulate(from: Version?, fromBuild: Version? = nil) -> InMemoryMigrationStore {
        InMemoryMigrationStore(state: .device(at: from, build: fromBuild))
    }

    /// The one walk through a plan, shared by runs and dry-runs so that they cannot disagree.
    private func execute(
        _ plan: MigrationPlan, store: (any MigrationStore)?, observer: (RunEvent) -> Void
    ) -> RunReport {
        var walk = PlanWalk(plan: plan, store: store)
        if plan.isBaseline {
            walk.recordBaseline()
            return walk.report
        }
        for entry in plan.pending {
            let migration = entry.migration
            guard walk.step(.migration(migration), track: migration.track, observer: observer, onSuccess: {
                $0.setLastMigrated(migration.track, to: migration.declared)
            }) else { return walk.report }
        }
        for track in plan.updatedTracks {
            for hook in plan.hooks.map(\.hook) where hook.track == track {
                guard walk.step(.hook(hook), track: track, observer: observer, onSuccess: { _ in }) else { return walk.report }
            }
            walk.commit { $0.setLastApp(track, to: plan.target.value(on: track)?.text ?? "") }
        }
        return walk.report
    }
}
