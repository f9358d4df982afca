/// One migration in a plan, with its status.
///
/// ```swift
/// for entry in plan.entries {
///     print(entry.migration.declared, entry.migration.title, entry.status.word)
/// }
/// ```
public struct PlanEntry: Sendable {
    /// The registry's declarations, shared by every entry of a plan: an entry names its
    /// migration by position rather than holding it, so that building, copying and freeing a
    /// plan of a million entries touches one shared list instead of a million declarations
    /// scattered in memory.
    private let declarations: [RegisteredMigration]
    private let position: UInt32
    /// Where the migration stands on this upgrade.
    public let status: MigrationStatus

    /// The migration at `position` in `declarations`, with `status`.
    init(_ declarations: [RegisteredMigration], position: Int, status: MigrationStatus) {
        self.declarations = declarations
        self.position = UInt32(position)
        self.status = status
    }

    /// The declared migration.
    public var migration: RegisteredMigration { declarations[Int(position)] }
}

/// One update hook in a plan, and whether it fires on this upgrade.
///
/// ```swift
/// for hook in plan.hooks { print(hook.hook.kind, hook.hook.title, hook.fires ? "fires" : "does not fire") }
/// ```
public struct HookPlan: Sendable {
    /// The declared hook.
    public let hook: UpdateHook
    /// Whether it runs on this upgrade: its track's app value changed and it has not run for
    /// that value yet.
    public let fires: Bool
}
