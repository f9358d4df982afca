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

    /// Runs the pending migrations and firing hooks, on the caller's thread.
    ///
    /// Each step is decided again on the store's current records under the step's own lock,
    /// so two runs (threads or processes) on one store never run a step twice, and a body may
    /// call the drop-in API for another block. A body that throws, or a record that cannot be
    /// saved, ends the run; that is reported, not thrown. An asynchronous body cannot run here:
    /// its step fails, saying to use `try await run(store:)`. A reset or set of the store
    /// (``MigrationStore/withoutRuns(onWait:_:)``) waits for the run, from the reading of its
    /// plan to its last record, so it never lands between two steps.
    /// - Throws: ``MigrationStoreError`` or ``MigrationStateError`` when the store cannot be
    ///   read: then nothing ran.
    public func run(store: any MigrationStore, observer: @escaping (RunEvent) -> Void = { _ in }) throws -> RunReport {
        try store.withRun { try execute(plan(store.load()), store: store, observer: observer) }
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

    /// The synchronous walk through a plan, shared by runs and dry-runs.
    private func execute(
        _ plan: MigrationPlan, store: (any MigrationStore)?, observer: @escaping (RunEvent) -> Void
    ) -> RunReport {
        var walk = PlanWalk(plan: plan, store: store)
        walk.walk(observer: observer)
        return walk.report
    }
}
