import Foundation
import Testing
@testable import MigrationCore

/// Every MTMigration behaviour this package keeps, one test each, named after it.
@Suite("MTMigration behaviour")
struct MTMigrationBehaviourTests {
    let store = InMemoryMigrationStore()

    func migrator(_ version: String, build: String? = nil, store: (any MigrationStore)? = nil) -> Migrator {
        Migrator(appVersion: version, appBuild: build, store: store ?? self.store)
    }

    @Test func migrateToVersion_runsTheBlockOnce() {
        var runs = 0
        let migrator = migrator("1.0")
        migrator.migrateToVersion("1.0") { runs += 1 }
        migrator.migrateToVersion("1.0") { runs += 1 }
        self.migrator("1.0").migrateToVersion("1.0") { runs += 1 }
        #expect(runs == 1)
        #expect(store.load().lastMigratedVersion == "1.0")
    }

    @Test func migrateToVersion_comparesVersionsNumerically() {
        store.save(MigrationState(lastMigratedVersion: "1.9"))
        var ran: [String] = []
        let migrator = migrator("1.10")
        migrator.migrateToVersion("1.10") { ran.append("1.10") }
        #expect(ran == ["1.10"])
    }

    @Test func migrateToVersion_withNoRecordRunsEveryBlockUpToTheAppVersion() {
        var ran: [String] = []
        let migrator = migrator("1.0")
        for version in ["0.5", "0.9", "1.0", "1.1"] { migrator.migrateToVersion(version) { ran.append(version) } }
        #expect(ran == ["0.5", "0.9", "1.0"])
    }

    @Test func migrateToVersion_runsEveryBlockBetweenTheLastRecordedAndTheAppVersion() {
        store.save(MigrationState(lastMigratedVersion: "0.8", lastAppVersion: "0.8"))
        var ran: [String] = []
        let migrator = migrator("1.0")
        for version in ["0.5", "0.8", "0.9", "0.10", "1.0", "1.1"] { migrator.migrateToVersion(version) { ran.append(version) } }
        #expect(ran == ["0.9", "0.10", "1.0"])
    }

    @Test func migrateToVersion_blockCalledAfterAHigherOneRanDoesNotRun() {
        var ran: [String] = []
        let migrator = migrator("1.0")
        migrator.migrateToVersion("0.9") { ran.append("0.9") }
        migrator.migrateToVersion("0.7") { ran.append("0.7") }
        #expect(ran == ["0.9"])
    }

    @Test func migrateToVersion_versionAboveTheAppVersionDoesNotRun() {
        var ran = false
        migrator("1.0").migrateToVersion("1.0.1") { ran = true }
        #expect(!ran)
        #expect(store.load().lastMigratedVersion == nil)
    }

    @Test func migrateToBuild_followsTheSameRulesOnItsOwnTrack() {
        var ran: [String] = []
        let migrator = migrator("1.0", build: "100")
        for build in ["98", "99", "100", "101"] { migrator.migrateToBuild(build) { ran.append(build) } }
        migrator.migrateToBuild("97") { ran.append("97") }
        #expect(ran == ["98", "99", "100"])
        #expect(store.load().lastMigratedBuild == "100")
        #expect(store.load().lastMigratedVersion == nil)
    }

    @Test func applicationUpdateBlock_runsOnFirstLaunch() {
        var runs = 0
        migrator("1.0").applicationUpdateBlock { runs += 1 }
        #expect(runs == 1)
        #expect(store.load().lastAppVersion == "1.0")
    }

    @Test func applicationUpdateBlock_runsOnceWhenTheAppVersionChanges() {
        var runs = 0
        migrator("1.0").applicationUpdateBlock { runs += 1 }
        migrator("1.0").applicationUpdateBlock { runs += 1 }
        let upgraded = migrator("1.1")
        upgraded.applicationUpdateBlock { runs += 1 }
        upgraded.applicationUpdateBlock { runs += 1 }
        #expect(runs == 2)
    }

    @Test func buildNumberUpdateBlock_runsOnceWhenTheBuildChanges() {
        var runs = 0
        migrator("1.0", build: "1").buildNumberUpdateBlock { runs += 1 }
        migrator("1.0", build: "1").buildNumberUpdateBlock { runs += 1 }
        migrator("1.0", build: "2").buildNumberUpdateBlock { runs += 1 }
        #expect(runs == 2)
        #expect(store.load().lastAppBuild == "2")
    }

    @Test func reset_forgetsAllFourRecords() {
        let migrator = migrator("1.0", build: "10")
        migrator.migrateToVersion("1.0") {}
        migrator.migrateToBuild("10") {}
        migrator.applicationUpdateBlock {}
        migrator.buildNumberUpdateBlock {}
        migrator.reset()
        let state = store.load()
        #expect(state.lastMigratedVersion == nil && state.lastMigratedBuild == nil)
        #expect(state.lastAppVersion == nil && state.lastAppBuild == nil)
        var again = 0
        migrator.migrateToVersion("1.0") { again += 1 }
        #expect(again == 1)
    }

    @Test func reset_withNothingRecordedIsHarmless() {
        migrator("1.0").reset()
        #expect(store.load().hasNoMarks)
        var ran = false
        migrator("1.0").migrateToVersion("1.0") { ran = true }
        #expect(ran)
    }

    @Test func throwingBlock_isNotRecordedAndRunsAgainNextTime() throws {
        struct Boom: Error {}
        let migrator = migrator("1.0")
        #expect(throws: Boom.self) { try migrator.migrateToVersion("0.9") { throw Boom() } }
        #expect(store.load().lastMigratedVersion == nil)
        #expect(store.load().history.last?.outcome == .failed)
        var ran = false
        migrator.migrateToVersion("0.9") { ran = true }
        #expect(ran)
    }

    @Test func malformedVersion_doesNotRunAndEmitsADiagnostic() throws {
        let diagnostics = Recorder<MigrationDiagnostic>()
        let migrator = Migrator(appVersion: "1.0", store: store, onDiagnostic: { diagnostics.append($0) })
        var ran = false
        for bad in ["1.0-beta", "v2", "1..2", ""] { migrator.migrateToVersion(bad) { ran = true } }
        #expect(!ran)
        try #require(diagnostics.items.count == 4)
        #expect(diagnostics.items[0].description.contains("\"1.0-beta\""))
        #expect(store.load() == .freshInstall)
    }

    @Test func malformedAppVersion_runsNothingAndEmitsADiagnostic() {
        let diagnostics = Recorder<MigrationDiagnostic>()
        let migrator = Migrator(appVersion: "", store: store, onDiagnostic: { diagnostics.append($0) })
        var ran = false
        migrator.migrateToVersion("0.1") { ran = true }
        migrator.applicationUpdateBlock { ran = true }
        #expect(!ran)
        #expect(diagnostics.items.count == 2)
    }

    @Test func concurrentCallers_neverRunTheSameBlockTwice() async {
        let runs = Recorder<String>()
        let migrator = migrator("1.0")
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<64 {
                group.addTask {
                    for version in ["0.1", "0.2", "0.3", "1.0"] {
                        migrator.migrateToVersion(version) { runs.append(version) }
                    }
                    migrator.applicationUpdateBlock { runs.append("update") }
                }
            }
        }
        #expect(runs.items.sorted() == ["0.1", "0.2", "0.3", "1.0", "update"])
    }

    @Test func baselinePolicy_recordsEverythingWithoutRunningOnAFreshInstall() {
        let migrator = Migrator(appVersion: "1.0", store: store, policy: .baseline)
        var ran = false
        migrator.migrateToVersion("0.9") { ran = true }
        migrator.applicationUpdateBlock { ran = true }
        #expect(!ran)
        #expect(store.load().lastMigratedVersion == "1.0")
        var later = false
        Migrator(appVersion: "1.1", store: store, policy: .baseline).migrateToVersion("1.1") { later = true }
        #expect(later)
    }

    @Test func unreadableStore_runsNothingAndEmitsADiagnostic() {
        let diagnostics = Recorder<MigrationDiagnostic>()
        let migrator = Migrator(appVersion: "1.0", store: FailingMigrationStore(), onDiagnostic: { diagnostics.append($0) })
        var ran = false
        migrator.migrateToVersion("0.9") { ran = true }
        #expect(!ran)
        #expect(diagnostics.items.first?.problem.contains("did not run") == true)
    }
}

