import Foundation
import Testing
@testable import MigrationCore

@Suite("UserDefaultsMigrationStore")
struct UserDefaultsMigrationStoreTests {
    let suite = "migration-tests-\(UUID().uuidString)"
    var defaults: UserDefaults { UserDefaults(suiteName: suite)! }

    @Test func readsAndWritesMTMigrationsOwnKeys() throws {
        let defaults = self.defaults
        defer { defaults.removePersistentDomain(forName: suite) }
        defaults.set("1.2", forKey: "MTMigration.lastMigrationVersion")
        defaults.set("1.2", forKey: "MTMigration.lastAppVersion")
        defaults.set("40", forKey: "MTMigration.lastMigrationBuild")
        defaults.set("41", forKey: "MTMigration.lastAppBuild")
        let store = UserDefaultsMigrationStore(defaults: defaults)
        let state = try store.load()
        #expect(state == MigrationState(lastMigratedVersion: "1.2", lastMigratedBuild: "40", lastAppVersion: "1.2",
                                        lastAppBuild: "41", historyIsComplete: false))
        var ran: [String] = []
        let migrator = Migrator(appVersion: "1.3", appBuild: "41", store: store)
        for version in ["1.1", "1.2", "1.3"] { migrator.migrateToVersion(version) { ran.append(version) } }
        #expect(ran == ["1.3"])
        #expect(defaults.string(forKey: "MTMigration.lastMigrationVersion") == "1.3")
        #expect(try store.load().history.map(\.identifier) == ["1.3"])
    }

    @Test func readsClafousLastMigrationVersionWhenMTMigrationsKeyIsAbsent() throws {
        let defaults = self.defaults
        defer { defaults.removePersistentDomain(forName: suite) }
        defaults.set("2.0", forKey: "lastMigrationVersion")
        let store = UserDefaultsMigrationStore(defaults: defaults)
        #expect(try store.load().lastMigratedVersion == "2.0")
        defaults.set("2.1", forKey: "MTMigration.lastMigrationVersion")
        #expect(try store.load().lastMigratedVersion == "2.1")
        Migrator(appVersion: "2.1", store: store).reset()
        #expect(try store.load().lastMigratedVersion == nil)
    }

    @Test func namedDomainsAreIndependent() throws {
        let defaults = self.defaults
        defer { defaults.removePersistentDomain(forName: suite) }
        let database = UserDefaultsMigrationStore(defaults: defaults, domain: "database")
        try database.save(MigrationState(lastMigratedVersion: "7"))
        #expect(defaults.string(forKey: "MigrationExplorer.database.lastMigrationVersion") == "7")
        #expect(try UserDefaultsMigrationStore(defaults: defaults).load().lastMigratedVersion == nil)
    }

    @Test func corruptHistoryIsAnError() {
        let defaults = self.defaults
        defer { defaults.removePersistentDomain(forName: suite) }
        defaults.set(Data("nope".utf8), forKey: "MigrationExplorer.history")
        #expect(throws: MigrationStoreError.self) { try UserDefaultsMigrationStore(defaults: defaults).load() }
    }
}

@Suite("AppVersions")
struct AppVersionsTests {
    @Test func readsAnInfoPlistIncludingIntegerCompatibilityLevels() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Info.plist")
        let plist: [String: Any] = ["CFBundleShortVersionString": "1.4", "CFBundleVersion": "212", "DatabaseLevel": 3]
        try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0).write(to: url)
        #expect(try AppVersions.infoPlist(at: url) == AppVersions(version: "1.4", build: "212"))
        #expect(try AppVersions.infoPlist(at: url, versionKey: "DatabaseLevel", buildKey: nil) == AppVersions(version: "3"))
        #expect(throws: InfoPlistError(path: url.path, problem: .missingKey("Nope"))) {
            try AppVersions.infoPlist(at: url, versionKey: "Nope")
        }
    }

    @Test func aFileThatIsNotAPlistIsAnError() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("Info.plist")
        try Data("hello".utf8).write(to: url)
        #expect(throws: InfoPlistError(path: url.path, problem: .notADictionary)) { try AppVersions.infoPlist(at: url) }
        #expect(throws: InfoPlistError.self) { try AppVersions.infoPlist(at: folder.appendingPathComponent("missing")) }
    }
}
