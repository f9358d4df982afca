import MigrationCore
import Testing

@Suite("Downgrades")
struct DowngradeTests {
    func plan(state: MigrationState, version: String, build: String? = nil) throws -> MigrationPlan {
        var registry = MigrationRegistry(appName: "Notes")
        registry.migrate(toVersion: "1.0", title: "One") { _ in }
        return try MigrationPlan(registry: registry, state: state, target: try AppTarget(version: version, build: build))
    }

    @Test func aMarkAboveTheAppVersionIsADowngrade() throws {
        let plan = try plan(state: .device(at: try Version("1.1"), build: try Version("90")), version: "1.0", build: "100")
        #expect(plan.downgrades == [Downgrade(track: .version, recorded: try Version("1.1"), app: try Version("1.0"))])
    }

    @Test func theBuildTrackCountsOnItsOwn() throws {
        let plan = try plan(state: MigrationState(lastMigratedVersion: "0.9", lastAppBuild: "120"), version: "1.0", build: "100")
        #expect(plan.downgrades.map(\.track) == [.build])
    }

    @Test("no downgrade at or below the app version, on a fresh install, or without a build",
          arguments: [MigrationState.freshInstall, MigrationState(lastMigratedVersion: "1.0", lastAppVersion: "1.0"),
                     MigrationState(lastMigratedVersion: "0.8", lastMigratedBuild: "200")])
    func noDowngrade(state: MigrationState) throws {
        #expect(try plan(state: state, version: "1.0").downgrades.isEmpty)
    }
}

@Suite("Downgrades: what a run does")
struct DowngradeRunTests {
    /// A device that ran 1.2 (a TestFlight build), then the App Store's 1.0: nothing runs
    /// backwards, the update hooks fire (the app version changed), the mark stays at 1.2.
    @Test func hooksFireNothingRunsAndTheMarkStays() throws {
        let ran = Recorder<String>()
        var registry = MigrationRegistry()
        for version in ["0.9", "1.0", "1.1", "1.2"] { registry.migrate(toVersion: version, title: version) { _ in ran.append(version) } }
        registry.onUpdate(title: "What's New") { context in ran.append("hook from \(context.from ?? "none") to \(context.to)") }
        let store = InMemoryMigrationStore(state: .device(at: try Version("1.2")))
        let plan = try MigrationRunner(registry: registry, target: try AppTarget(version: "1.0")).plan(store: store)
        #expect(plan.downgrades.map(\.description) == ["downgrade: the device recorded 1.2, the app is 1.0"])
        let report = try MigrationRunner(registry: registry, target: try AppTarget(version: "1.0")).run(store: store)
        #expect(ran.items == ["hook from 1.2 to 1.0"])
        #expect(report.state.lastMigratedVersion == "1.2" && report.state.lastAppVersion == "1.0")
        // Back on 1.2: the hooks fire again, and still no migration runs twice.
        _ = try MigrationRunner(registry: registry, target: try AppTarget(version: "1.2")).run(store: store)
        #expect(ran.items == ["hook from 1.2 to 1.0", "hook from 1.0 to 1.2"])
    }
}
