/// One migration in a plan, with its status.
public struct PlanEntry: Sendable {
    public let migration: RegisteredMigration
    public let status: MigrationStatus
}

/// One update hook in a plan, and whether it fires on this upgrade.
public struct HookPlan: Sendable {
    public let hook: UpdateHook
    public let fires: Bool
}
