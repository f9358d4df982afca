import Foundation
import MigrationCore
import MigrationTestSupport
import Testing

/// Apps switching to this package by a dependency change: their launch code, unchanged, behaves
/// as it did on the library it was written for, over several launches, starting from the marks
/// that library left in `UserDefaults`.
@Suite("Switching by a dependency change")
struct SwitchingTests {
    let suite = "migration-switching-\(UUID().uuidString)"
    var defaults: UserDefaults { UserDefaults(suiteName: suite)! }

    /// One launch of the app at `version` (`build`), through the shared migrator on the suite's defaults.
    func launch(_ code: (ExampleApp) -> Void, version: String, build: String = "110") async -> [String] {
        let app = ExampleApp()
        await withSharedMigrator(Migrator(appVersion: version, appBuild: build, store: UserDefaultsMigrationStore(defaults: defaults))) {
            code(app)
        }
        return app.ran
    }

    func marks() -> [String?] {
        ["MTMigration.lastMigrationVersion", "MTMigration.lastAppVersion", "MTMigration.lastMigrationBuild", "MTMigration.lastAppBuild"]
            .map { defaults.string(forKey: $0) }
    }

    @Test func anAppWrittenForMTMigrationBehavesAsOnMTMigrationOverSeveralLaunches() async {
        defer { defaults.removePersistentDomain(forName: suite) }
        // Fresh install of 1.1: every block up to the app runs, and both update blocks.
        #expect(await launch(launchWrittenForMTMigration, version: "1.1") == ["1.1 normalise dates", "what's new", "refresh caches"])
        #expect(marks() == ["1.1", "1.1", nil, "110"])
        // The same release again: nothing.
        #expect(await launch(launchWrittenForMTMigration, version: "1.1").isEmpty)
        // An upgrade to 1.2, build 120.
        #expect(await launch(launchWrittenForMTMigration, version: "1.2", build: "120")
            == ["1.2 move notes to folders", "build 120 rebuild search index", "what's new", "refresh caches"])
        #expect(marks() == ["1.2", "1.2", "120", "120"])
        // reset: every block up to the app runs again.
        await withSharedMigrator(Migrator(appVersion: "1.2", appBuild: "120", store: UserDefaultsMigrationStore(defaults: defaults))) {
            resetWrittenForMTMigration()
        }
        #expect(marks() == [nil, nil, nil, nil])
        #expect(await launch(launchWrittenForMTMigration, version: "1.2", build: "120").count == 5)
    }

    @Test func aDeviceThatSkippedAReleaseRunsEveryBlockInBetween() async {
        defer { defaults.removePersistentDomain(forName: suite) }
        for (key, value) in [("MTMigration.lastMigrationVersion", "1.0"), ("MTMigration.lastAppVersion", "1.0"),
                             ("MTMigration.lastAppBuild", "100")] { defaults.set(value, forKey: key) }
        #expect(await launch(launchWrittenForMTMigration, version: "1.2", build: "120")
            == ["1.1 normalise dates", "1.2 move notes to folders", "build 120 rebuild search index", "what's new", "refresh caches"])
    }

    /// The first launch after the switch, on a device where the old library recorded 1.1 (and
    /// build 110): nothing it recorded runs again, the new release's blocks run, MTMigration's
    /// keys are written and the old library's keys are folded into them.
    @Test(arguments: [
        ("MTMigration", ["MTMigration.lastMigrationVersion", "MTMigration.lastAppVersion", "MTMigration.lastMigrationBuild", "MTMigration.lastAppBuild"]),
        ("MTMigration's Swift pod", ["Migration.lastMigrationVersion", "Migration.lastAppVersion", "Migration.lastMigrationBuild", "Migration.lastAppBuild"]),
        ("Hengyu's Migration", ["Migration.lastVersion", "Migration.lastAppVersion", "Migration.lastBuild", "Migration.lastAppBuild"]),
    ])
    func theFirstLaunchAfterTheSwitchRunsOnlyWhatIsNew(library: String, keys: [String]) async {
        defer { defaults.removePersistentDomain(forName: suite) }
        for (key, value) in zip(keys, ["1.1", "1.1", "110", "110"]) { defaults.set(value, forKey: key) }
        let code: (ExampleApp) -> Void = switch library {
        case "MTMigration": launchWrittenForMTMigration
        case "Hengyu's Migration": launchWrittenForHengyu
        default: launchWrittenForMTMigrationSwiftPod
        }
        #expect(await launch(code, version: "1.1").isEmpty, "\(library): a block ran again")
        #expect(await launch(code, version: "1.2", build: "120")
            == ["1.2 move notes to folders", "build 120 rebuild search index", "what's new", "refresh caches"])
        #expect(marks() == ["1.2", "1.2", "120", "120"])
        for key in keys where !key.hasPrefix("MTMigration.") { #expect(defaults.object(forKey: key) == nil, "\(key) is left") }
    }

    @Test func anAppSwitchingFromClafousMigrationRunsOnlyWhatIsNew() async {
        defer { defaults.removePersistentDomain(forName: suite) }
        defaults.set("1.1", forKey: "lastMigrationVersion")
        #expect(await launch(launchWrittenForClafou, version: "1.2") == ["1.2 move notes to folders"])
        #expect(defaults.string(forKey: "MTMigration.lastMigrationVersion") == "1.2")
        #expect(defaults.object(forKey: "lastMigrationVersion") == nil)
    }

    @Test func repeatedResetsWithNothingRunInBetweenKeepOneRecordWithACount() async throws {
        defer { defaults.removePersistentDomain(forName: suite) }
        let store = UserDefaultsMigrationStore(defaults: defaults)
        _ = await launch(launchWrittenForMTMigration, version: "1.1")
        for _ in 0..<3 {
            await withSharedMigrator(Migrator(appVersion: "1.1", store: store)) { resetWrittenForMTMigration() }
        }
        var resets = try store.load().history.filter { $0.subject == .reset }
        #expect(resets.map(\.resetCount) == [3])
        _ = await launch(launchWrittenForMTMigration, version: "1.1")
        await withSharedMigrator(Migrator(appVersion: "1.1", store: store)) { resetWrittenForMTMigration() }
        resets = try store.load().history.filter { $0.subject == .reset }
        #expect(resets.last?.resetCount == 1, "a reset after blocks ran is a record of its own")
    }
}
