import Foundation
import Testing
@testable import MigrationCore

@Suite("PropertyListMigrationStore")
struct PropertyListMigrationStoreTests {
    /// An app's preferences as the system would keep them: keys of every plist type beside the marks.
    static let appPreferences = """
    {"NSWindowFrame": "0 0 800 600", "Greeting": "Grüß dich ✓", "LaunchCount": 42, "Huge": 2**40,
     "Ratio": 1.5, "Onboarded": True, "Muted": False, "FirstLaunch": datetime.datetime(2024, 5, 1, 12, 30),
     "Token": bytes([0, 1, 2, 255]), "Recent": ["a", 1, {"x": 2.25}], "Nested": {"k": [True, "v"]},
     "MTMigration.lastMigrationVersion": "0.8", "MTMigration.lastAppVersion": "0.8"}
    """

    static let otherKeys = ["NSWindowFrame", "Greeting", "LaunchCount", "Huge", "Ratio", "Onboarded", "Muted",
                            "FirstLaunch", "Token", "Recent", "Nested"]

    @Test("a plist written by plistlib is read, updated, and keeps its format and every other key", arguments: ["binary", "xml"])
    func plistWrittenByAnotherTool(format: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("com.example.notes.plist")
        try Plistlib.write(Self.appPreferences, to: url, format: format)
        let before = try Plistlib.read(url)
        let store = PropertyListMigrationStore(url: url)
        #expect(try store.load().lastMigratedVersion == "0.8")

        let ran = Recorder<String>()
        var registry = MigrationRegistry()
        for version in ["0.8", "0.9", "1.0"] { registry.migrate(toVersion: version, title: version) { _ in ran.append(version) } }
        let report = try MigrationRunner(registry: registry, target: AppTarget(version: "1.0")).run(store: store)
        #expect(report.failure == nil && report.saveError == nil)
        #expect(ran.items == ["0.9", "1.0"])

        let after = try Plistlib.read(url)
        #expect(after.format == format)
        for key in Self.otherKeys { #expect(after.values[key] == before.values[key], "\(key)") }
        #expect(after.values["MTMigration.lastMigrationVersion"] == "str '1.0'")
        #expect(after.values["MTMigration.lastAppVersion"] == "str '1.0'")
        #expect(after.values["MigrationExplorer.history"]?.hasSuffix("bytes>") == true)
        #expect(after.values["MigrationExplorer.historyIsComplete"] == "bool False")
        #expect(Set(after.values.keys) == Set(before.values.keys).union(["MigrationExplorer.history", "MigrationExplorer.historyIsComplete"]),
                "the migrations' starts were taken back with their records: no key is left for them")
        #expect(try store.load().history.map(\.identifier) == ["0.9", "1.0"])
    }

    @Test func everyLegacyKeyIsReadTheHighestWinsAndMTMigrationsKeysAreWritten() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("prefs.plist")
        try Plistlib.write("""
        {"MTMigration.lastMigrationVersion": "0.8", "Migration.lastMigrationVersion": "0.10", "lastMigrationVersion": "0.9",
         "Migration.lastVersion": "0.7", "MTMigration.lastMigrationBuild": "90", "Migration.lastBuild": "95",
         "Migration.lastAppVersion": "0.10", "Migration.lastAppBuild": "95", "Other": "kept"}
        """, to: url, format: "binary")
        let store = PropertyListMigrationStore(url: url)
        let state = try store.load()
        #expect(state == MigrationState(lastMigratedVersion: "0.10", lastMigratedBuild: "95", lastAppVersion: "0.10", lastAppBuild: "95"))
        #expect(state.markSources[.lastMigratedVersion] == "\(url.path) \"Migration.lastMigrationVersion\"")
        try store.save(state)
        #expect(try Plistlib.read(url).values.filter { !$0.key.hasPrefix("MigrationExplorer.") } == [
            "MTMigration.lastMigrationVersion": "str '0.10'", "MTMigration.lastMigrationBuild": "str '95'",
            "MTMigration.lastAppVersion": "str '0.10'", "MTMigration.lastAppBuild": "str '95'", "Other": "str 'kept'",
        ])
    }

    @Test("a corrupt plist is refused, stays byte for byte, and nothing runs", arguments: [
        ("empty", ""), ("text", "not a plist at all"), ("OpenStep", "{ MTMigration.lastMigrationVersion = \"0.1\"; }"),
        ("array", "<?xml version=\"1.0\"?><plist version=\"1.0\"><array><string>0.1</string></array></plist>"),
        ("unclosed XML", "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>a</key>"),
        ("truncated binary", "bplist00\u{d1}\u{01}\u{02}"),
    ])
    func corruptPlist(name: String, contents: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("prefs.plist")
        try Data(contents.utf8).write(to: url)
        try expectRefused(url)
    }

    /// Foundation reads almost any text as an old-style (OpenStep) property list: a word, a
    /// quoted string. Only a dictionary in that format is called one; the rest is not a
    /// property list this tool reads.
    @Test(arguments: [("hello", false), ("\"just a string\"", false), ("{ a = b; }", true), ("key = value;", true)])
    func textIsNotCalledAnOldStylePropertyListUnlessItHoldsADictionary(text: String, isOpenStep: Bool) {
        #expect(throws: PropertyListValues.Problem.self) { try PropertyListValues(data: Data(text.utf8)) }
        do {
            _ = try PropertyListValues(data: Data(text.utf8))
        } catch {
            #expect(error.description.contains("OpenStep") == isOpenStep, "\(error.description)")
            if !isOpenStep { #expect(error.description.contains("neither XML nor binary"), "\(error.description)") }
        }
    }

    @Test func aHistoryThatIsNotDataIsRefused() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("prefs.plist")
        try Plistlib.write(#"{"MigrationExplorer.history": "[]"}"#, to: url, format: "xml")
        try expectRefused(url)
    }

    private func expectRefused(_ url: URL) throws {
        let before = try Data(contentsOf: url)
        let store = PropertyListMigrationStore(url: url)
        let error = try #require(throws: MigrationStoreError.self) { try store.load() }
        #expect(error.description.hasPrefix(url.path))
        guard case .corrupt = error.problem else { Issue.record("not reported as corrupt: \(error)"); return }
        let ran = Recorder<String>()
        var registry = MigrationRegistry()
        registry.migrate(toVersion: "0.1", title: "t") { _ in ran.append("registry") }
        #expect(throws: MigrationStoreError.self) { try MigrationRunner(registry: registry, target: AppTarget(version: "1.0")).run(store: store) }
        #expect(throws: MigrationStoreError.self) { try store.save(.freshInstall) }
        Migrator(appVersion: "1.0", store: store).migrateToVersion("0.1") { ran.append("drop-in") }
        #expect(ran.items.isEmpty)
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func aSaveKeepsTheFilesPermissions() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("prefs.plist")
        try Plistlib.write(#"{"Other": 1}"#, to: url, format: "binary")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        try PropertyListMigrationStore(url: url).save(MigrationState(lastMigratedVersion: "1.0"))
        #expect(try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int == 0o600)
    }

    @Test func aMissingFileIsAFreshInstallAndTheFirstSaveWritesABinaryPlist() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("prefs.plist")
        let store = PropertyListMigrationStore(url: url, domain: "database")
        #expect(try store.load() == .freshInstall)
        try store.save(MigrationState(lastMigratedVersion: "3"))
        let written = try Plistlib.read(url)
        #expect(written.format == "binary")
        #expect(written.values["MigrationExplorer.database.lastMigrationVersion"] == "str '3'")
        #expect(written.values["MTMigration.lastMigrationVersion"] == nil)
    }

    @Test func domainsOfOneFileKeepTheirOwnMarks() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("prefs.plist")
        let app = PropertyListMigrationStore(url: url)
        let database = PropertyListMigrationStore(url: url, domain: "database")
        try app.save(MigrationState(lastMigratedVersion: "1.0"))
        try database.save(MigrationState(lastMigratedVersion: "3"))
        #expect(try app.loadMarks().lastMigratedVersion == "1.0")
        #expect(try database.loadMarks().lastMigratedVersion == "3")
    }

    @Test func everyPathToOneFileSharesOneLock() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("prefs.plist")
        let link = folder.appendingPathComponent("link.plist")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: url)
        let direct = PropertyListMigrationStore(url: url)
        let viaLink = PropertyListMigrationStore(url: link, domain: "database")
        #expect(viaLink.lockDescriptor == nil)
        try direct.withExclusiveAccess { #expect(viaLink.lockDescriptor != nil) }
        try viaLink.save(MigrationState(lastMigratedVersion: "2"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == url.path)
        #expect(try PropertyListMigrationStore(url: url, domain: "database").load().lastMigratedVersion == "2")
    }

    @Test func aFileThatCannotBeReplacedStopsTheBodyBeforeItRuns() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("prefs.plist")
        try Plistlib.write(#"{"Other": 1}"#, to: url, format: "xml")
        let before = try Data(contentsOf: url)
        // A folder where the temporary file must go makes every write fail, even as root.
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(".prefs.plist.tmp"), withIntermediateDirectories: false)
        let store = PropertyListMigrationStore(url: url)
        #expect(throws: MigrationStoreError.self) { try store.prepareToWrite() }
        var ran = false
        Migrator(appVersion: "1.0", store: store).migrateToVersion("1.0") { ran = true }
        #expect(!ran)
        #expect(try Data(contentsOf: url) == before)
    }
}
