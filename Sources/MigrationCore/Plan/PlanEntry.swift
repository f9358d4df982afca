/// One migration in a plan, with its status.
public struct PlanEntry: Sendable {
    /// The registry's declarations, shared by every entry of a plan: an entry names its
    /// migration by position rather than holding it, so that building, copying and freeing a
    /// plan of a million entries touches one shared list instead of a million declarations
    /// scattered in memory.
    private let declarations: [RegisteredMigration]
    private let position: UInt32
    public let status: MigrationStatus

    /// The migration at `position` in `declarations`, with `status`.
    init(_ declarations: [RegisteredMigration], position: Int, status: MigrationStatus) {
        self.declarations = declarations
        self.position = UInt32(position)
        self.status = status
    }

    public var migration: RegisteredMigration { declarations[Int(position)] }
}

/// One update hook in a plan, and whether it fires on this upgrade.
public struct HookPlan: Sendable {
    public let hook: UpdateHook
    public let fires: Bool
}
