/// One migration in a plan, with its status and its latest history record.
public struct PlanEntry: Sendable {
    public let migration: RegisteredMigration
    public let status: MigrationStatus
    /// The most recent history record of this migration, if any.
    public let lastRecord: MigrationRecord?
}

/// One update hook in a plan, and whether it fires on this upgrade.
public struct HookPlan: Sendable {
    public let hook: UpdateHook
    public let fires: Bool
}
