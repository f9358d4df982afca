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
    /// The declared migrations and hooks.
    public let registry: MigrationRegistry
    /// The app version (and build) runs upgrade to.
    public let target: AppTarget
    /// What a fresh install does.
    public let policy: FreshInstallPolicy
    /// Whether a migration held back by its interruptions (``InterruptedHoldBack``) runs all
    /// the same: for a debug menu's "try again", or `run --retry-interrupted`. Its body is
    /// told how many attempts were interrupted (``MigrationContext/interruptedAttempts``).
    ///
    /// ```swift
    /// var runner = MigrationRunner(registry: registry, target: target)
    /// runner.retriesInterrupted = true
    /// let report = try runner.run(store: store)
    /// ```
    public var retriesInterrupted = false

    /// A runner of `registry` for an app at `target`.
    ///
    /// ```swift
    /// let runner = MigrationRunner(registry: registry, target: try AppTarget(version: "1.0", build: "120"), policy: .baseline)
    /// ```
    public init(registry: MigrationRegistry, target: AppTarget, policy: FreshInstallPolicy = .runAll) {
        self.registry = registry
        self.target = target
        self.policy = policy
    }

    /// When interrupted migrations are held back: the registry's limit, unless retried.
    var holdBack: PlanWalk.HoldBack {
        PlanWalk.HoldBack(limit: registry.interruptionLimit, retry: retriesInterrupted)
    }

    /// The plan for a device in `state`.
    ///
    /// ```swift
    /// let plan = try runner.plan(.device(at: try Version("0.8")))
    /// ```
    public func plan(_ state: MigrationState) throws(MigrationStateError) -> MigrationPlan {
        try MigrationPlan(registry: registry, state: state, target: target, policy: policy)
    }

    /// The plan for the device recorded in `store`: every migration with its status, in run
    /// order; nothing runs or is written.
    ///
    /// ```swift
    /// for entry in try runner.plan(store: store).entries { print(entry.migration.label, entry.status.word) }
    /// ```
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
    ///
    /// ```swift
    /// let report = try runner.run(store: store) { event in
    ///     if case .finished(let step) = event { print(step.subject.label, step.outcome) }
    /// }
    /// if !report.succeeded { print(report.failure?.outcome ?? "a record could not be saved") }
    /// ```
    /// - Throws: ``MigrationStoreError`` or ``MigrationStateError`` when the store cannot be
    ///   read, or when there is something to run and the store cannot be written (see
    ///   ``MigrationStore/checkWritable()``): then nothing ran.
    public func run(store: any MigrationStore, observer: @escaping (RunEvent) -> Void = { _ in }) throws -> RunReport {
        if let unchanged = try reportIfNothingToDo(on: store) { return unchanged }
        return try store.withRun { writeProblem in
            var walk = PlanWalk(plan: try plan(store.load()), store: store, holdBack: holdBack)
            try walk.refuseToWrite(despite: writeProblem)
            walk.walk(observer: observer)
            return walk.report
        }
    }

    /// The report of a run that finds nothing to do in `store`'s records (no pending migration,
    /// no hook, no app value or baseline to record), read once, with no lock taken and no
    /// write checked: what a launch that is up to date costs, one read (on a network store, one
    /// round trip). `nil` when a run has something to do: it then reads the store again under
    /// its run lock. A read is one snapshot, so a reset or another run going on meanwhile finds
    /// this run before it or after it, never between its steps.
    func reportIfNothingToDo(on store: any MigrationStore) throws -> RunReport? {
        let found = try plan(store.load())
        return found.changesRecords ? nil : PlanWalk(plan: found, store: store, holdBack: holdBack).report
    }

    /// What ``run(store:observer:)-3an0q`` would do now, without running or writing anything.
    ///
    /// ```swift
    /// for step in try runner.dryRun(store: store).steps { print(step.subject.label, step.outcome) }
    /// ```
    public func dryRun(store: any MigrationStore) throws -> RunReport {
        try dryRun(store.load())
    }

    /// A dry-run for a device in `state`.
    ///
    /// ```swift
    /// let preview = try runner.dryRun(.freshInstall)
    /// ```
    public func dryRun(_ state: MigrationState) throws(MigrationStateError) -> RunReport {
        var walk = PlanWalk(plan: try plan(state), store: nil, holdBack: holdBack)
        walk.walk(observer: { _ in })
        return walk.report
    }

    /// A sandbox that starts as a device that last ran app version `from` (and build
    /// `fromBuild`), as ``MigrationRegistry/device(lastRan:build:)`` describes it: for a shipped
    /// release, the history replaying the releases records; otherwise a guessed one, the marks
    /// at `from`. `nil` for both is a fresh install. Plan, dry-run or run it like any store.
    ///
    /// ```swift
    /// let sandbox = runner.simulate(from: try Version("0.8"))
    /// let report = try runner.run(store: sandbox)
    /// ```
    public func simulate(from: Version?, fromBuild: Version? = nil) -> InMemoryMigrationStore {
        InMemoryMigrationStore(state: registry.device(lastRan: from, build: fromBuild).state)
    }
}
