import Foundation
import MigrationTestSupport
import Testing
@testable import MigrationCore

/// The test suites of the libraries an app switches from, ported to the static facade: what
/// passed there passes here, with only the import changed. Every test replaces the shared
/// migrator (through `withSharedMigrator`, which keeps other suites out meanwhile), so the suite runs serially.
///
/// Sources of the cases: MTMigration's `MTMigrationTests.m`, its Swift pod's
/// `MigrationTests.swift`, and Clafou's `MigrationTests.swift`. Each app runs at version 1.0,
/// build 1, on `UserDefaults` of its own, starting from `Migration.reset()` as their `setUp` does.
@Suite("Peer suites on the static facade", .serialized)
struct PeerSuiteTests {
    /// Runs `body` with ``Migration/shared`` on fresh defaults after a reset, as the peers' `setUp`.
    func onTheFacade(_ body: (UserDefaults) throws -> Void) async rethrows {
        let suite = "migration-peer-\(UUID().uuidString)"
        let defaults = UserDefaults(suiteName: suite)!
        defer { defaults.removePersistentDomain(forName: suite) }
        try await withSharedMigrator(Migrator(appVersion: "1.0", appBuild: "1", store: UserDefaultsMigrationStore(defaults: defaults))) {
            Migration.reset()
            try body(defaults)
        }
    }

    // MARK: MTMigration (Objective-C) and its Swift pod, and Clafou's Migration

    @Test func testMigrationReset() async {
        await onTheFacade { _ in
            var ran: [String] = []
            Migration.migrateToVersion("0.9") { ran.append("0.9") }
            Migration.migrateToVersion("1.0") { ran.append("1.0") }
            Migration.migrateToBuild("1") { ran.append("build 1") }
            Migration.reset()
            Migration.migrateToVersion("0.9") { ran.append("0.9 again") }
            Migration.migrateToVersion("1.0") { ran.append("1.0 again") }
            Migration.migrateToBuild("1") { ran.append("build 1 again") }
            #expect(ran == ["0.9", "1.0", "build 1", "0.9 again", "1.0 again", "build 1 again"])
        }
    }

    @Test func testMigratesOnFirstRun() async {
        await onTheFacade { _ in
            var ran = false
            Migration.migrateToVersion("1.0") { ran = true }
            #expect(ran)
        }
    }

    @Test func testMigratesOnce() async {
        await onTheFacade { _ in
            var runs = 0
            Migration.migrateToVersion("1.0") { runs += 1 }
            Migration.migrateToVersion("1.0") { runs += 1 }
            #expect(runs == 1)
        }
    }

    @Test func testMigratesPreviousBlocks() async {
        await onTheFacade { _ in
            var ran: [String] = []
            Migration.migrateToVersion("0.9") { ran.append("0.9") }
            Migration.migrateToVersion("1.0") { ran.append("1.0") }
            #expect(ran == ["0.9", "1.0"])
        }
    }

    @Test func testMigratesInNaturalSortOrder() async {
        await onTheFacade { _ in
            var ran: [String] = []
            Migration.migrateToVersion("0.9") { ran.append("0.9") }
            Migration.migrateToVersion("0.1") { ran.append("0.1") }
            Migration.migrateToVersion("0.10") { ran.append("0.10") }
            #expect(ran == ["0.9", "0.10"])
        }
    }

    @Test func testRunsApplicationUpdateBlockOnce() async {
        await onTheFacade { _ in
            var runs = 0
            Migration.applicationUpdateBlock { runs += 1 }
            Migration.applicationUpdateBlock { runs += 1 }
            #expect(runs == 1)
        }
    }

    @Test func testRunsApplicationUpdateBlockOnlyOnceWithMultipleMigrations() async {
        await onTheFacade { _ in
            Migration.migrateToVersion("0.8") {}
            Migration.migrateToVersion("0.9") {}
            Migration.migrateToVersion("0.10") {}
            var runs = 0
            Migration.applicationUpdateBlock { runs += 1 }
            #expect(runs == 1)
        }
    }

    // MARK: MTMigration's Swift pod, under its own names

    @Test func testRunsApplicationUpdateOnceUnderTheSwiftPodsName() async {
        await onTheFacade { _ in
            var runs = 0
            Migration.applicationUpdate { runs += 1 }
            Migration.applicationUpdate { runs += 1 }
            #expect(runs == 1)
        }
    }

    @Test func testRunsBuildNumberUpdateBlockOnce() async {
        await onTheFacade { _ in
            var runs = 0
            Migration.buildNumberUpdate { runs += 1 }
            Migration.buildNumberUpdate { runs += 1 }
            Migration.buildNumberUpdateBlock { runs += 1 }
            #expect(runs == 1)
        }
    }

    @Test func testRunsBuildUpdateBlockOnlyOnceWithMultipleMigrations() async {
        await onTheFacade { _ in
            Migration.migrateToVersion("0.8") {}
            Migration.migrateToVersion("0.9") {}
            Migration.migrateToVersion("0.10") {}
            var runs = 0
            Migration.buildNumberUpdate { runs += 1 }
            #expect(runs == 1)
        }
    }

    // MARK: The facade itself

    @Test func staticFacade_usesTheSharedMigrator() async {
        let store = InMemoryMigrationStore()
        await withSharedMigrator(Migrator(appVersion: "1.1", store: store)) {
            var ran: [String] = []
            Migration.migrateToVersion("1.1") { ran.append("1.1") }
            Migration.migrateToBuild("1") { ran.append("build") }
            Migration.applicationUpdateBlock { ran.append("update") }
            Migration.buildNumberUpdateBlock { ran.append("build update") }
            Migration.reset()
            #expect(ran == ["1.1", "update"])
            #expect(store.load().hasNoMarks)
            // The asynchronous calls, on the same shared migrator.
            await Migration.migrateToVersion("1.1") { () async in ran.append("async 1.1") }
            await Migration.migrateToBuild("1") { () async in ran.append("async build") }
            await Migration.applicationUpdateBlock { () async in ran.append("async update") }
            await Migration.buildNumberUpdateBlock { () async in ran.append("async build update") }
            #expect(ran == ["1.1", "update", "async 1.1", "async update"])
        }
    }

    @Test func theFacadeWritesMTMigrationsKeysSoGoingBackStillWorks() async {
        await onTheFacade { defaults in
            Migration.migrateToVersion("0.9") {}
            Migration.migrateToBuild("1") {}
            Migration.applicationUpdateBlock {}
            Migration.buildNumberUpdateBlock {}
            #expect(defaults.string(forKey: "MTMigration.lastMigrationVersion") == "0.9")
            #expect(defaults.string(forKey: "MTMigration.lastMigrationBuild") == "1")
            #expect(defaults.string(forKey: "MTMigration.lastAppVersion") == "1.0")
            #expect(defaults.string(forKey: "MTMigration.lastAppBuild") == "1")
        }
    }

    // MARK: The launch-time check behind the facade

    @Test func theFacadeSeesAResetThroughAnotherStoreObject() async throws {
        let suite = "migration-peer-\(UUID().uuidString)"
        let defaults = UserDefaults(suiteName: suite)!
        let store = UserDefaultsMigrationStore(defaults: defaults)
        defer { defaults.removePersistentDomain(forName: suite) }
        try await withSharedMigrator(Migrator(appVersion: "2.0", store: store)) {
            var runs = 0
            Migration.migrateToVersion("1.0") { runs += 1 }
            try LaunchCheckTests.warmUp(Migration.shared, store)
            Migration.migrateToVersion("1.0") { runs += 1 }
            Migrator(appVersion: "2.0", store: UserDefaultsMigrationStore(defaults: defaults)).reset()
            Migration.migrateToVersion("1.0") { runs += 1 }
            #expect(runs == 2)
        }
    }
}
