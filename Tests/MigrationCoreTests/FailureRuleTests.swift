import Foundation
import MigrationTestSupport
import Testing
@testable import MigrationCore

/// The failure rule, on every path: after a block fails, no higher block of its track runs until
/// that block has succeeded: later in the same launch (calling it again runs it), or on the
/// next launch, when it and everything after it run in order.
@Suite("A failed block holds back the blocks after it")
struct FailureRuleTests {
    struct Oops: Error {}

    let store = InMemoryMigrationStore()

    func migrator(_ app: String = "2.0", diagnostics: Recorder<String>? = nil) -> Migrator {
        Migrator(appVersion: app, appBuild: "20", store: store, onDiagnostic: { diagnostics?.append($0.description) })
    }

    @Test func aFailedBlockIsNotSkippedForeverWhenALaterOneIsCalled() throws {
        let ran = Recorder<String>()
        let diagnostics = Recorder<String>()
        let launch = migrator(diagnostics: diagnostics)
        try? launch.migrateToVersion("1.0") { throw Oops() }
        launch.migrateToVersion("1.1") { ran.append("1.1") }
        #expect(ran.items.isEmpty, "1.1 ran after 1.0 failed")
        #expect(store.load().lastMigratedVersion == nil)
        #expect(diagnostics.items.contains { $0.contains("migrateToVersion(\"1.1\")") && $0.contains("held back") && $0.contains("\"1.0\"") })

        let next = migrator()
        next.migrateToVersion("1.0") { ran.append("1.0") }
        next.migrateToVersion("1.1") { ran.append("1.1") }
        #expect(ran.items == ["1.0", "1.1"])
        #expect(store.load().lastMigratedVersion == "1.1")
    }

    @Test func aRetryInTheSameLaunchReleasesTheBlocksAfterIt() throws {
        let ran = Recorder<String>()
        let launch = migrator()
        try? launch.migrateToVersion("1.0") { throw Oops() }
        launch.migrateToVersion("1.0") { ran.append("1.0") }
        launch.migrateToVersion("1.1") { ran.append("1.1") }
        #expect(ran.items == ["1.0", "1.1"])
    }

    @Test func aFailureHoldsBackEveryMigratorOnTheStoreUntilItSucceeds() throws {
        let ran = Recorder<String>()
        try? migrator().migrateToVersion("1.0") { throw Oops() }
        migrator().migrateToVersion("1.1") { ran.append("1.1") }     // another migrator, same store
        try? migrator().migrateToVersion("1.0") { throw Oops() }     // fails again
        migrator().migrateToVersion("1.2") { ran.append("1.2") }
        #expect(ran.items.isEmpty)
        migrator().migrateToVersion("1.0") { ran.append("1.0") }
        migrator().migrateToVersion("1.2") { ran.append("1.2") }
        #expect(ran.items == ["1.0", "1.2"])
    }

    /// The next launch is a new process: nothing above the failed block was recorded, so the
    /// app's calls, in order, run it first and then the ones after it. A block the new release
    /// no longer calls holds nothing back.
    @Test func theNextLaunchRunsTheFailedBlockFirstAndABlockNoLongerCalledHoldsNothingBack() throws {
        try? migrator().migrateToVersion("1.0") { throw Oops() }
        migrator().migrateToVersion("1.1") { Issue.record("1.1 ran after 1.0 failed") }
        let ran = Recorder<String>()
        let nextLaunch = Migrator(appVersion: "2.0", appBuild: "20", store: InMemoryMigrationStore(state: store.load()))
        try? nextLaunch.migrateToVersion("1.0") { throw Oops() }
        nextLaunch.migrateToVersion("1.1") { ran.append("1.1") }
        #expect(ran.items.isEmpty)
        let releaseWithout10 = Migrator(appVersion: "2.0", appBuild: "20", store: InMemoryMigrationStore(state: store.load()))
        releaseWithout10.migrateToVersion("1.1") { ran.append("1.1") }
        #expect(ran.items == ["1.1"])
    }

    @Test func aFailureInOneDomainOfAFileHoldsBackThatDomainAlone() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("state.json")
        let ran = Recorder<String>()
        let database = Migrator(appVersion: "2.0", store: FileMigrationStore(url: url, domain: "database"))
        let interface = Migrator(appVersion: "2.0", store: FileMigrationStore(url: url, domain: "interface"))
        try? database.migrateToVersion("1.1") { throw Oops() }
        interface.migrateToVersion("1.1") { ran.append("interface 1.1") }
        interface.migrateToVersion("1.2") { ran.append("interface 1.2") }
        database.migrateToVersion("1.2") { ran.append("database 1.2") }
        #expect(ran.items == ["interface 1.1", "interface 1.2"])
    }

    @Test func aCancelledBlockHoldsBackTheBlocksAfterIt() async throws {
        let ran = Recorder<String>()
        let launch = migrator()
        try? await launch.migrateToVersion("1.0") { () async throws in throw CancellationError() }
        await launch.migrateToVersion("1.1") { () async in ran.append("1.1") }
        #expect(ran.items.isEmpty)
        #expect(store.load().lastMigratedVersion == nil)
    }

    @Test func aBlockWhoseRecordCouldNotBeSavedHoldsBackTheBlocksAfterIt() throws {
        let refusing = SaveRefusingStore(allowedSaves: 0)
        let ran = Recorder<String>()
        let launch = Migrator(appVersion: "2.0", store: refusing)
        launch.migrateToVersion("1.0") { ran.append("1.0") }
        launch.migrateToVersion("1.1") { ran.append("1.1") }
        #expect(ran.items == ["1.0"])
    }

    @Test func aFailedBuildHoldsBackHigherBuilds() throws {
        let ran = Recorder<String>()
        let launch = migrator()
        try? launch.migrateToBuild("12") { throw Oops() }
        launch.migrateToBuild("15") { ran.append("build 15") }
        launch.migrateToVersion("1.0") { ran.append("1.0") }
        #expect(ran.items == ["1.0"])
    }

    @Test func aFailureOnUserDefaultsHoldsBackTheBlocksAfterIt() throws {
        let suite = "migration-failure-\(UUID().uuidString)"
        let defaults = UserDefaults(suiteName: suite)!
        defer { defaults.removePersistentDomain(forName: suite) }
        let ran = Recorder<String>()
        let launch = Migrator(appVersion: "2.0", store: UserDefaultsMigrationStore(defaults: defaults))
        try? launch.migrateToVersion("1.0") { throw Oops() }
        Migrator(appVersion: "2.0", store: UserDefaultsMigrationStore(defaults: defaults)).migrateToVersion("1.1") { ran.append("1.1") }
        #expect(ran.items.isEmpty)
        #expect(defaults.string(forKey: "MTMigration.lastMigrationVersion") == nil)
    }

    @Test func aFailureOnACustomStoreHoldsBackTheBlocksAfterItOnTheSameMigrator() throws {
        let store = SaveRefusingStore(allowedSaves: 100)
        let ran = Recorder<String>()
        let launch = Migrator(appVersion: "2.0", store: store)
        try? launch.migrateToVersion("1.0") { throw Oops() }
        launch.migrateToVersion("1.1") { ran.append("1.1") }
        #expect(ran.items.isEmpty)
    }

    @Test func aFailureHoldsBackOnlyItsOwnTrack() throws {
        let ran = Recorder<String>()
        let launch = migrator()
        try? launch.migrateToVersion("1.0") { throw Oops() }
        launch.migrateToBuild("12") { ran.append("build 12") }
        launch.migrateToVersion("0.9") { ran.append("0.9") }        // lower: not held back by 1.0
        #expect(ran.items == ["build 12", "0.9"])
    }

    @Test func updateBlocksAreNotHeldBackByAFailedMigration() throws {
        let ran = Recorder<String>()
        let launch = migrator()
        try? launch.migrateToVersion("1.0") { throw Oops() }
        launch.applicationUpdateBlock { ran.append("update") }
        launch.buildNumberUpdateBlock { ran.append("build update") }
        #expect(ran.items == ["update", "build update"])
        #expect(store.load().lastAppVersion == "2.0")
    }

    @Test func aFailedUpdateBlockRunsAgainNextLaunch() throws {
        let ran = Recorder<String>()
        try? migrator().applicationUpdateBlock { throw Oops() }
        #expect(store.load().lastAppVersion == nil)
        migrator().applicationUpdateBlock { ran.append("update") }
        #expect(ran.items == ["update"])
    }

    @Test func aResetReleasesABlockHeldBackByAFailure() throws {
        let ran = Recorder<String>()
        try? migrator().migrateToVersion("1.0") { throw Oops() }
        migrator().reset()
        migrator().migrateToVersion("1.1") { ran.append("1.1") }
        #expect(ran.items == ["1.1"])
    }

    @Test func asynchronousBlocksAreHeldBackAfterAFailure() async throws {
        let ran = Recorder<String>()
        let launch = migrator()
        try? await launch.migrateToVersion("1.0") { () async throws in throw Oops() }
        await launch.migrateToVersion("1.1") { () async in ran.append("1.1") }
        #expect(ran.items.isEmpty)
        await launch.migrateToVersion("1.0") { () async in ran.append("1.0") }
        await launch.migrateToVersion("1.1") { () async in ran.append("1.1") }
        #expect(ran.items == ["1.0", "1.1"])
    }

    @Test func theFacadeHoldsBackAfterAFailure() async throws {
        let ran = Recorder<String>()
        await withSharedMigrator(migrator()) {
            try? Migration.migrateToVersion("1.0") { throw Oops() }
            Migration.migrateToVersion("1.1") { ran.append("1.1") }
        }
        #expect(ran.items.isEmpty)
        #expect(store.load().lastMigratedVersion == nil)
    }

    @Test func aPlanShowsTheFailedOneAsFailedAndTheOnesAfterItAsHeldBack() throws {
        try? migrator().migrateToVersion("1.0") { throw Oops() }
        var registry = MigrationRegistry()
        registry.migrate(toVersion: "0.9", title: "A") { _ in }
        registry.migrate(toVersion: "1.0", title: "B") { _ in }
        registry.migrate(toVersion: "1.1", title: "C") { _ in }
        let plan = try MigrationPlan(registry: registry, state: store.load(), target: try AppTarget(version: "2.0"))
        #expect(plan.entries.map(\.status) == [.pending, .failed, .pending])
        #expect(plan.entries.map { plan.heldBack($0)?.declared } == [nil, nil, "1.0"])
    }

    @Test func aRegistryRunStopsAtTheFailureAndTheNextRunResumesThere() throws {
        let ran = Recorder<String>()
        let fails = Locked(true)
        var registry = MigrationRegistry()
        registry.migrate(toVersion: "1.0", title: "B") { _ in
            if fails.value { throw Oops() }
            ran.append("1.0")
        }
        registry.migrate(toVersion: "1.1", title: "C") { _ in ran.append("1.1") }
        let runner = MigrationRunner(registry: registry, target: try AppTarget(version: "2.0"))
        let first = try runner.run(store: store)
        #expect(!first.succeeded && ran.items.isEmpty)
        #expect(first.heldBack.map(\.declared) == ["1.1"])
        fails.withLock { $0 = false }
        _ = try runner.run(store: store)
        #expect(ran.items == ["1.0", "1.1"])
    }
}
