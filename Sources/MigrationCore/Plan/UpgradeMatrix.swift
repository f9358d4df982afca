import Foundation

/// Every upgrade path at once: for a fresh install and for each release below the target as
/// "from", the plan of the upgrade to the target, on the version track (releases are app
/// versions; builds have no release history).
///
/// ```swift
/// let matrix = try UpgradeMatrix(registry: registry, target: try AppTarget(version: "1.0"))
/// for row in matrix.rows { print(row.from?.text ?? "fresh install", row.runs.map(\.declared)) }
/// ```
public struct UpgradeMatrix: Sendable {
    /// One upgrade path: a device that last ran ``from``, upgraded to the matrix's target.
    ///
    /// ```swift
    /// let row = matrix.rows[1]
    /// print(row.from?.text ?? "fresh install", "runs", row.runs.map(\.declared), "never runs", row.outOfOrder.map(\.declared))
    /// ```
    public struct Row: Sendable {
        /// The release the device last ran; `nil`: a fresh install.
        public let from: Version?
        /// The device's plan, its history replayed from the releases.
        public let plan: MigrationPlan
        /// The version migrations that run, in run order.
        public let runs: [RegisteredMigration]
        /// The version migrations this device will never run.
        public let outOfOrder: [RegisteredMigration]
        /// The migrations that run whose last run failed (in the recorded history given).
        public let failed: [RegisteredMigration]

        /// The status of `migration` on this path (`nil` for a build migration).
        public func status(of migration: RegisteredMigration) -> MigrationStatus? {
            statuses[migration.id]
        }

        /// Whether `migration` runs on this path and its last run failed: one of ``failed``,
        /// found without a search.
        public func failedLastRun(_ migration: RegisteredMigration) -> Bool {
            failedIDs.contains(migration.id)
        }

        private let statuses: [Int: MigrationStatus]
        private let failedIDs: Set<Int>

        init(from: Version?, plan: MigrationPlan, lastRun: MigrationPlan?) {
            self.from = from
            self.plan = plan
            let entries = plan.entries.filter { $0.migration.track == .version }
            statuses = Dictionary(uniqueKeysWithValues: entries.map { ($0.migration.id, $0.status) })
            runs = plan.pending.map(\.migration).filter { $0.track == .version }
            outOfOrder = entries.filter { $0.status == .skipped(.outOfOrder) }.map(\.migration)
            failed = runs.filter { lastRun?.lastRecord(of: $0)?.outcome == .failed }
            failedIDs = Set(failed.map(\.id))
        }
    }

    /// The app version every row upgrades to.
    public let target: AppTarget
    /// A fresh install first, then each release below the target, ascending.
    public let rows: [Row]
    /// The valid version migrations, in run order: the matrix's columns.
    public let migrations: [RegisteredMigration]

    /// Plans the upgrade to `target` from a fresh install and from every release of `registry`
    /// below it.
    ///
    /// ```swift
    /// let matrix = try UpgradeMatrix(registry: registry, target: try AppTarget(version: "1.0"), lastRun: try store.load())
    /// ```
    /// - Parameters:
    ///   - registry: the declared migrations and the releases the app shipped.
    ///   - target: the app version (and build) every row upgrades to.
    ///   - policy: what a fresh install does (the first row).
    ///   - lastRun: a recorded state whose history says which migrations failed when
    ///     last run (a real store's); `nil`: none did.
    /// - Throws: ``MigrationStateError`` when `lastRun` records a mark that is not a version.
    public init(
        registry: MigrationRegistry, target: AppTarget, policy: FreshInstallPolicy = .runAll, lastRun: MigrationState? = nil
    ) throws(MigrationStateError) {
        self.target = target
        var lastRunPlan: MigrationPlan?
        if let lastRun { lastRunPlan = try MigrationPlan(registry: registry, state: lastRun, target: target, policy: policy) }
        // The device at each release, as `registry.device(lastRan:)` replays it, in one pass
        // over the releases rather than a replay from the first release for each row.
        var devices: [(from: Version?, state: MigrationState)] = [(nil, .freshInstall)]
        _ = MigrationRule.replayReleases(of: registry, through: target.version, at: Date()) { release, state in
            if release < target.version { devices.append((release, state)) }
        }
        self.rows = try devices.map { device throws(MigrationStateError) in
            Row(from: device.from, plan: try MigrationPlan(registry: registry, state: device.state, target: target, policy: policy),
                lastRun: lastRunPlan)
        }
        migrations = (rows.first?.plan.entries ?? []).filter {
            $0.migration.track == .version && $0.status != .skipped(.duplicate) && $0.status != .skipped(.invalidVersion)
        }.map(\.migration)
    }
}

extension MigrationPlan {
    /// What the What's New screen of this upgrade shows: the migrations that run and have
    /// What's New lines, in run order.
    public var whatsNew: [RegisteredMigration] {
        pending.map(\.migration).filter { !$0.whatsNew.isEmpty }
    }
}
