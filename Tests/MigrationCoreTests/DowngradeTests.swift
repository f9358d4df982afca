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
