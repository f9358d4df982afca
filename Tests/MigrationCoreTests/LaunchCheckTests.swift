import Foundation
import MigrationTestSupport
import Testing
@testable import MigrationCore

/// The launch-time check, which decides on cached marks under one lock, sees every change made
/// in the process, and a launch reads no more than the marks.
@Suite("Launch-time check", .serialized, .onThreadOfItsOwn)
struct LaunchCheckTests {
    /// Calls `migrator` until its store's marks are cached (the change observer is in place),
    /// so that the next calls take the launch-time check's cached path.
    static func warmUp(_ migrator: Migrator, _ store: UserDefaultsMigrationStore) throws {
        // Blocking: the callers run inside a synchronous closure; the cache fills within the first calls.
        let cached = blockingWaitUntil {
            if store.cache.withCachedEntry({ _ in true }) != nil { return true }
            migrator.migrateToVersion("0.1") {}
            return false
        }
        try #require(cached, "the change observer was not registered within 30 s")
    }

    private func onFreshDefaults(_ body: (UserDefaults) throws -> Void) rethrows {
        let suite = "migration-launch-\(UUID().uuidString)"
        let defaults = UserDefaults(suiteName: suite)!
        defer { defaults.removePersistentDomain(forName: suite) }
        try body(defaults)
    }

    /// A migrator for an app at 2.0 on `defaults` that ran 1.0 (counted in `runs`) and now
    /// decides on cached marks.
    private func warmMigrator(on defaults: UserDefaults, runs: inout Int) throws -> Migrator {
        let store = UserDefaultsMigrationStore(defaults: defaults)
        let migrator = Migrator(appVersion: "2.0", store: store)
        migrator.migrateToVersion("1.0") { runs += 1 }
        try Self.warmUp(migrator, store)
        return migrator
    }

    @Test func aSaveThroughAnotherStoreObjectIsSeenByTheNextCachedCall() async throws {
        try onFreshDefaults { defaults in
            var runs = 0
            let migrator = try warmMigrator(on: defaults, runs: &runs)
            migrator.migrateToVersion("1.0") { runs += 1 }
            #expect(runs == 1)
            try UserDefaultsMigrationStore(defaults: defaults).update { $0 = MigrationRule.reset($0) }
            migrator.migrateToVersion("1.0") { runs += 1 }
            #expect(runs == 2)
        }
    }

    /// Apple's Foundation reports every change, `[MTMigration reset]` included, through
    /// `UserDefaults.didChangeNotification`; the notification is posted here by hand, as
    /// swift-corelibs-foundation posts it only for whole domains.
    @Test func aKeyRemovedElsewhereAndReportedIsSeenByTheNextCachedCall() async throws {
        try onFreshDefaults { defaults in
            var runs = 0
            let migrator = try warmMigrator(on: defaults, runs: &runs)
            defaults.removeObject(forKey: "MTMigration.lastMigrationVersion")
            NotificationCenter.default.post(name: UserDefaults.didChangeNotification, object: defaults)
            migrator.migrateToVersion("1.0") { runs += 1 }
            #expect(runs == 2)
        }
    }

    @Test func aSaveToAMemoryStoreIsSeenByTheNextCachedCall() {
        let store = InMemoryMigrationStore()
        let migrator = Migrator(appVersion: "2.0", appBuild: "20", store: store)
        var ran: [String] = []
        migrator.migrateToVersion("1.0") { ran.append("1.0") }
        migrator.migrateToBuild("10") { ran.append("b10") }
        migrator.migrateToVersion("1.0") { ran.append("1.0 again") }
        #expect(store.cache.withCachedEntry { _ in true } == true)
        store.save(.freshInstall)
        migrator.migrateToVersion("1.0") { ran.append("1.0 after the save") }
        migrator.migrateToBuild("10") { ran.append("b10 after the save") }
        #expect(ran == ["1.0", "b10", "1.0 after the save", "b10 after the save"])
    }

    @Test func aLaunchThatReadsTheMarksOnceRegistersNoObserverAndASecondReadDoes() {
        onFreshDefaults { defaults in
            defaults.set("1.0", forKey: "MTMigration.lastMigrationVersion")
            let store = UserDefaultsMigrationStore(defaults: defaults)
            let migrator = Migrator(appVersion: "1.0", store: store)
            migrator.migrateToVersion("1.0") { Issue.record("already ran") }
            #expect(!store.resource.isObservingDefaults)
            migrator.migrateToVersion("0.9") { Issue.record("already ran") }
            #expect(store.resource.isObservingDefaults)
        }
    }

    /// A launch reads the marks' keys, and neither the history nor whether it is complete.
    @Test func aLaunchReadsOnlyTheMarksKeys() {
        let values = RecordingValues(["MTMigration.lastMigrationVersion": "1.0", "MigrationExplorer.historyIsComplete": true])
        let keys = UserDefaultsKeys(domain: nil)
        let marks = keys.marks(in: values)
        #expect(marks.lastMigratedVersion == "1.0")
        #expect(Set(values.read) == Set(RecordedMark.allCases.flatMap(keys.read)))
    }

    /// The completeness of the history, which a launch does not read, is still carried
    /// through a step: an appended record leaves it as it was recorded.
    @Test(arguments: [true, false])
    func aStepKeepsWhetherTheHistoryIsComplete(_ complete: Bool) throws {
        try onFreshDefaults { defaults in
            let store = UserDefaultsMigrationStore(defaults: defaults)
            try store.save(MigrationState(lastMigratedVersion: "0.5", history: [], historyIsComplete: complete))
            Migrator(appVersion: "1.0", store: store).migrateToVersion("1.0") {}
            let state = try store.load()
            #expect(state.lastMigratedVersion == "1.0")
            #expect(state.historyIsComplete == complete)
            #expect(store.loadMarks().historyIsComplete == complete)
        }
    }
}

/// Preferences that record every key read.
private final class RecordingValues: PreferenceValues {
    private var values: [String: Any]
    private(set) var read: [String] = []

    init(_ values: [String: Any]) { self.values = values }

    func object(forKey key: String) -> Any? {
        read.append(key)
        return values[key]
    }

    func string(forKey key: String) -> String? { object(forKey: key) as? String }
    func set(_ value: Any?, forKey key: String) { values[key] = value }
    func removeObject(forKey key: String) { values[key] = nil }
}
