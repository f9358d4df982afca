extension MigrationPlan {
    /// The interrupted attempts of `migration` on this device, oldest first, each with its
    /// date and app build: what QA replaying a device's store sees its users lived through.
    ///
    /// ```swift
    /// for attempt in plan.interruptedAttempts(of: entry.migration) { print(attempt.date, attempt.appName ?? "") }
    /// ```
    public func interruptedAttempts(of migration: RegisteredMigration) -> [MigrationAttempt] {
        guard let version = migration.version else { return [] }
        return MigrationRule.interruptedAttempts(of: version, on: migration.track, in: state)
    }

    /// Why a run would hold `migration` back now: it is pending and was interrupted `limit`
    /// times at the plan's app build (see ``MigrationRule/isHeldBack(interruptions:limit:)``);
    /// `nil` when it would run.
    ///
    /// ```swift
    /// if let held = plan.interruptionHoldBack(of: entry.migration) { print(held) }   // interrupted 3 times at build 120, held back
    /// ```
    public func interruptionHoldBack(of migration: RegisteredMigration, limit: Int? = nil) -> InterruptedHoldBack? {
        guard let version = migration.version, state.attempts.contains(where: { $0.isOf(migration.track, version) }),
              pending.contains(where: { $0.migration.track == migration.track && $0.migration.version == version }) else { return nil }
        let counted = MigrationRule.interruptions(of: version, on: migration.track, in: state, at: target)
        guard MigrationRule.isHeldBack(interruptions: counted.count, limit: limit ?? registry.interruptionLimit) else { return nil }
        return InterruptedHoldBack(track: migration.track, version: version, attempts: counted)
    }
}
