import Foundation
import Testing
@testable import MigrationCore

/// An app that switches to this package from MTMigration or one of its look-alikes, with the
/// state those libraries left in `UserDefaults`: nothing they recorded runs again, and one bad
/// value stops only its own track.
@Suite("Switching from other libraries")
struct SwitchingUserTests {
    let suite = "migration-switch-\(UUID().uuidString)"
    var defaults: UserDefaults { UserDefaults(suiteName: suite)! }

    func migrator(_ version: String, build: String? = nil, diagnostics: Recorder<MigrationDiagnostic>? = nil) -> Migrator {
        Migrator(appVersion: version, appBuild: build, store: UserDefaultsMigrationStore(defaults: defaults),
                 onDiagnostic: { diagnostics?.append($0) })
    }

    @Test func badAppBuildDoesNotStopVersionMigrationsAndIsNamedAsTheBuild() throws {
        defer { defaults.removePersistentDomain(forName: suite) }
        let diagnostics = Recorder<MigrationDiagnostic>()
        let migrator = migrator("1.0", build: "312-abc", diagnostics: diagnostics)
        var ran: [String] = []
        migrator.migrateToVersion("1.0") { ran.append("version") }
        migrator.applicationUpdateBlock { ran.append("update") }
        migrator.migrateToBuild("300") { ran.append("build") }
        #expect(ran == ["version", "update"])
        try #require(diagnostics.items.count == 1)
        #expect(diagnostics.items[0].problem.contains("app build"))
        #expect(diagnostics.items[0].problem.contains("312-abc"))
    }

    @Test func legacyMarkWithSuffixDoesNotBlockOtherTracks() {
        defer { defaults.removePersistentDomain(forName: suite) }
        defaults.set("2.0b", forKey: "MTMigration.lastMigrationVersion")
        defaults.set("2.0b", forKey: "MTMigration.lastAppVersion")
        let diagnostics = Recorder<MigrationDiagnostic>()
        let migrator = migrator("2.1", build: "5", diagnostics: diagnostics)
        var ran: [String] = []
        for version in ["1.9", "2.0", "2.1"] { migrator.migrateToVersion(version) { ran.append(version) } }
        migrator.migrateToBuild("5") { ran.append("build 5") }
        migrator.applicationUpdateBlock { ran.append("update") }
        migrator.buildNumberUpdateBlock { ran.append("build update") }
        #expect(ran == ["2.1", "build 5", "update", "build update"])
        #expect(diagnostics.items.contains { $0.problem.contains("MTMigration.lastMigrationVersion") && $0.problem.contains("counts as 2.0") })
    }

    @Test(arguments: ["1.4 (18)", "2.0.0-beta.1", "312-abc"])
    func looseLegacyMarkCountsAsItsLeadingNumbers(mark: String) throws {
        defer { defaults.removePersistentDomain(forName: suite) }
        defaults.set(mark, forKey: "MTMigration.lastMigrationBuild")
        let leading = try #require(Version(leadingComponentsOf: mark))
        var ran: [String] = []
        let next = "\(leading.components[0] + 1)"
        let migrator = migrator("1.0", build: next)
        migrator.migrateToBuild(leading.text) { ran.append(leading.text) }
        migrator.migrateToBuild(next) { ran.append(next) }
        #expect(ran == [next])
    }

    @Test func unusableMarkBlocksOnlyItsTrackAndNamesTheKeyAndValue() {
        defer { defaults.removePersistentDomain(forName: suite) }
        defaults.set("abc", forKey: "MTMigration.lastMigrationBuild")
        let diagnostics = Recorder<MigrationDiagnostic>()
        let migrator = migrator("1.0", build: "10", diagnostics: diagnostics)
        var ran: [String] = []
        migrator.migrateToBuild("10") { ran.append("build") }
        migrator.migrateToVersion("1.0") { ran.append("version") }
        #expect(ran == ["version"])
        let problem = diagnostics.items.first?.problem ?? ""
        #expect(problem.contains("MTMigration.lastMigrationBuild") && problem.contains("\"abc\""))
        #expect(defaults.string(forKey: "MTMigration.lastMigrationBuild") == "abc")
    }

    @Test func mtMigrationThenClafouThenUsRunsNothingTwice() {
        defer { defaults.removePersistentDomain(forName: suite) }
        defaults.set("1.0", forKey: "MTMigration.lastMigrationVersion")
        defaults.set("1.2", forKey: "lastMigrationVersion")
        var ran: [String] = []
        let migrator = migrator("1.3")
        for version in ["1.0", "1.1", "1.2", "1.3"] { migrator.migrateToVersion(version) { ran.append(version) } }
        #expect(ran == ["1.3"])
    }

    /// The keys each library writes: last migrated version, last app version, last migrated
    /// build, last app build.
    static let libraries: [(name: String, keys: [String])] = [
        ("MTMigration (Objective-C)", ["MTMigration.lastMigrationVersion", "MTMigration.lastAppVersion", "MTMigration.lastMigrationBuild", "MTMigration.lastAppBuild"]),
        ("MTMigration Swift pod", ["Migration.lastMigrationVersion", "Migration.lastAppVersion", "Migration.lastMigrationBuild", "Migration.lastAppBuild"]),
        ("Hengyu's Migration", ["Migration.lastVersion", "Migration.lastAppVersion", "Migration.lastBuild", "Migration.lastAppBuild"]),
    ]

    @Test(arguments: 0..<3)
    func stateLeftByAnotherLibraryRunsNothingAgain(library: Int) {
        defer { defaults.removePersistentDomain(forName: suite) }
        let keys = Self.libraries[library].keys
        for (key, value) in zip(keys, ["1.2", "1.2", "40", "40"]) { defaults.set(value, forKey: key) }
        var ran: [String] = []
        let migrator = migrator("1.2", build: "41")
        for version in ["1.1", "1.2"] { migrator.migrateToVersion(version) { ran.append(version) } }
        for build in ["40", "41"] { migrator.migrateToBuild(build) { ran.append("b" + build) } }
        migrator.applicationUpdateBlock { ran.append("update") }
        migrator.buildNumberUpdateBlock { ran.append("build update") }
        #expect(ran == ["b41", "build update"], "\(Self.libraries[library].name)")
    }

    @Test func writesMTMigrationsKeysAndFoldsTheOthersIn() {
        defer { defaults.removePersistentDomain(forName: suite) }
        defaults.set("1.2", forKey: "Migration.lastVersion")
        defaults.set("1.1", forKey: "lastMigrationVersion")
        migrator("1.3").migrateToVersion("1.3") {}
        #expect(defaults.string(forKey: "MTMigration.lastMigrationVersion") == "1.3")
        #expect(defaults.string(forKey: "Migration.lastVersion") == nil)
        #expect(defaults.string(forKey: "lastMigrationVersion") == nil)
        // A leftover [MTMigration reset] now resets everything.
        for key in Self.libraries[0].keys { defaults.removeObject(forKey: key) }
        var again = false
        migrator("1.3").migrateToVersion("1.3") { again = true }
        #expect(again)
    }
}
