import Testing
@testable import MigrationCore

/// A plan calls a migration applied only when a record, or a history, says it ran.
@Suite("Honest plan")
struct HonestPlanTests {
    /// App 1.2; 1.0.5 first shipped in 1.2, after a device at 1.1 had passed it. No releases.
    static func registry() -> MigrationRegistry {
        var registry = MigrationRegistry(appName: "Notes")
        registry.migrate(toVersion: "0.9", title: "Nine")
        registry.migrate(toVersion: "1.1", title: "Eleven")
        registry.migrate(toVersion: "1.0.5", title: "Late fix", since: "1.2")
        return registry
    }

    static let target = try! AppTarget(version: "1.2")

    func statuses(_ plan: MigrationPlan) -> [String: MigrationStatus] {
        Dictionary(uniqueKeysWithValues: plan.entries.map { ($0.migration.declared, $0.status) })
    }

    @Test func aMigrationShippedAfterTheDevicesVersionIsOutOfOrderWithoutReleases() throws {
        let registry = Self.registry()
        let set = registry.device(lastRan: try Version("1.1"), over: .freshInstall)
        let plan = try MigrationPlan(registry: registry, state: set, target: Self.target)
        #expect(statuses(plan) == ["0.9": .applied, "1.0.5": .skipped(.outOfOrder), "1.1": .applied])
        let messages = plan.problems.map(\.message)
        #expect(messages.contains { $0.contains("version 1.0.5 \"Late fix\" is out of order: shipped in 1.2, after this device's 1.1; MTMigration never runs it") },
                "\(messages)")
    }

    @Test func aMigrationShippedAfterTheDevicesVersionStaysOutOfOrderAfterARun() throws {
        let registry = Self.registry()
        let store = InMemoryMigrationStore(state: registry.device(lastRan: try Version("1.1"), over: .freshInstall))
        let runner = MigrationRunner(registry: registry, target: Self.target)
        let report = try runner.run(store: store)
        #expect(report.steps.isEmpty)
        #expect(store.load().lastAppVersion == "1.2")
        #expect(statuses(try runner.plan(store: store))["1.0.5"] == .skipped(.outOfOrder))
    }

    @Test func aSimulatedDeviceKeepsItOutOfOrderAfterARun() throws {
        let runner = MigrationRunner(registry: Self.registry(), target: Self.target)
        let sandbox = runner.simulate(from: try Version("1.1"))
        #expect(statuses(try runner.plan(store: sandbox))["1.0.5"] == .skipped(.outOfOrder))
        _ = try runner.run(store: sandbox)
        #expect(statuses(try runner.plan(store: sandbox))["1.0.5"] == .skipped(.outOfOrder))
    }

    @Test func anImportedDeviceAtAnOlderVersionNeverRanWhatShippedLater() throws {
        // MTMigration's own marks, no history: the device last ran 1.1.
        let imported = MigrationState(lastMigratedVersion: "1.1", lastAppVersion: "1.1")
        let plan = try MigrationPlan(registry: Self.registry(), state: imported, target: Self.target)
        #expect(statuses(plan)["1.0.5"] == .skipped(.outOfOrder))
        // A device whose mark is above its app version once ran a newer release: it may have run it.
        let downgraded = MigrationState(lastMigratedVersion: "1.2", lastAppVersion: "1.1")
        #expect(statuses(try MigrationPlan(registry: Self.registry(), state: downgraded, target: Self.target))["1.0.5"] == .applied)
    }

    @Test func aSetWithABuildOnlyKeepsTheDevicesVersion() throws {
        let registry = Self.registry()
        let set = registry.device(lastRan: nil, build: try Version("90"), over: MigrationState(lastMigratedVersion: "1.1", lastAppVersion: "1.1"))
        let store = InMemoryMigrationStore(state: set)
        let runner = MigrationRunner(registry: registry, target: Self.target)
        _ = try runner.run(store: store)
        #expect(statuses(try runner.plan(store: store))["1.0.5"] == .skipped(.outOfOrder))
    }
}
