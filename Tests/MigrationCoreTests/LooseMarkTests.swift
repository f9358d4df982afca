import Testing
@testable import MigrationCore

/// A recorded mark read leniently is never read silently.
@Suite("Loose marks")
struct LooseMarkTests {
    @Test func aMarkReadLenientlyIsListedByThePlan() throws {
        var registry = MigrationRegistry()
        registry.migrate(toVersion: "1.0", title: "Ten")
        registry.migrate(toVersion: "1.1", title: "Eleven")
        var state = MigrationState(lastMigratedVersion: "1.0-beta", lastAppVersion: "1.0")
        state.markSources[.lastMigratedVersion] = "MTMigration.lastMigrationVersion"
        let plan = try MigrationPlan(registry: registry, state: state, target: AppTarget(version: "1.1"))
        #expect(plan.entries.map(\.status) == [.applied, .pending])
        #expect(plan.looseMarks.map(\.description) == ["MTMigration.lastMigrationVersion is \"1.0-beta\", not a version; it counts as 1.0"])
        #expect(try MigrationPlan(registry: registry, state: .device(at: Version("1.0")), target: AppTarget(version: "1.1")).looseMarks.isEmpty)
    }
}
