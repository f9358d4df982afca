import Foundation
import Testing
@testable import MigrationCore

@Suite("FileMigrationStore")
struct FileMigrationStoreTests {
    @Test func aMissingFileIsAFreshInstall() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try FileMigrationStore(url: folder.appendingPathComponent("state.json")).load() == .freshInstall)
    }

    @Test func aFileThatCannotBeReachedIsAnErrorNotAFreshInstall() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (first, second) = (folder.appendingPathComponent("loop1.json"), folder.appendingPathComponent("loop2.json"))
        try FileManager.default.createSymbolicLink(at: first, withDestinationURL: second)
        try FileManager.default.createSymbolicLink(at: second, withDestinationURL: first)
        let store = FileMigrationStore(url: first)
        #expect(throws: MigrationStoreError.self) { try store.load() }
        #expect(throws: MigrationStoreError.self) { try store.loadMarks() }
    }

    @Test func savesAndLoadsEachDomainIndependently() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("state.json")
        let defaults = FileMigrationStore(url: url, domain: "defaults")
        let database = FileMigrationStore(url: url, domain: "database")
        try defaults.save(MigrationState(lastMigratedVersion: "1.0"))
        try database.save(MigrationState(lastMigratedVersion: "3"))
        #expect(try defaults.load().lastMigratedVersion == "1.0")
        #expect(try database.load().lastMigratedVersion == "3")
        #expect(try FileMigrationStore(url: url).load() == .freshInstall)
        // Each domain's marks are cached on their own.
        #expect(try defaults.loadMarks().lastMigratedVersion == "1.0")
        #expect(try database.loadMarks().lastMigratedVersion == "3")
        var ran: [String] = []
        Migrator(appVersion: "3", store: database).migrateToVersion("2") { ran.append("2") }
        #expect(ran.isEmpty)
    }

    @Test func theDropInAPIWorksOnAFile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("state.json")
        var runs = 0
        Migrator(appVersion: "1.0", store: FileMigrationStore(url: url)).migrateToVersion("1.0") { runs += 1 }
        Migrator(appVersion: "1.0", store: FileMigrationStore(url: url)).migrateToVersion("1.0") { runs += 1 }
        #expect(runs == 1)
        #expect(try String(contentsOf: url, encoding: .utf8).contains(#""lastMigratedVersion":"1.0""#))
    }

    @Test("a corrupt file is an error, stays byte for byte, and nothing runs", arguments: [
        "{ not json", "[]", "{\"format\": 99, \"domains\": {}}", "{\"format\": 1, \"domains\": {\"default\": {\"history\": 3}}}", "",
    ])
    func corruptFile(contents: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("state.json")
        try Data(contents.utf8).write(to: url)
        let store = FileMigrationStore(url: url)
        #expect(throws: MigrationStoreError.self) { try store.load() }
        var registry = MigrationRegistry()
        let ran = Recorder<String>()
        registry.migrate(toVersion: "0.1", title: "t") { _ in ran.append("0.1") }
        #expect(throws: MigrationStoreError.self) {
            try MigrationRunner(registry: registry, target: AppTarget(version: "1.0")).run(store: store)
        }
        Migrator(appVersion: "1.0", store: store).migrateToVersion("0.1") { ran.append("drop-in") }
        #expect(ran.items.isEmpty)
        #expect(try Data(contentsOf: url) == Data(contents.utf8))
    }

    @Test func aFileThatCannotBeWrittenIsAnErrorAndTheOldRecordStays() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("state.json")
        let store = FileMigrationStore(url: url)
        try store.save(MigrationState(lastMigratedVersion: "0.5"))
        let before = try Data(contentsOf: url)
        // A folder where the temporary file must go makes every write fail, even as root.
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(".state.json.tmp"), withIntermediateDirectories: false)
        #expect(throws: MigrationStoreError.self) { try store.save(MigrationState(lastMigratedVersion: "1.0")) }
        #expect(try Data(contentsOf: url) == before)
        let error = try #require(throws: MigrationStoreError.self) { try store.save(.freshInstall) }
        #expect(error.description.contains("cannot be written"))
    }

    @Test func anUnreadablePathIsAnErrorNotAFreshInstall() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: MigrationStoreError.self) { try FileMigrationStore(url: folder).load() }
    }

    @Test func exclusiveAccessNestsOnOneThreadAndExcludesOthers() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = FileMigrationStore(url: folder.appendingPathComponent("state.json"))
        try store.withExclusiveAccess { try store.withExclusiveAccess { try store.save(MigrationState(lastMigratedVersion: "1")) } }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<10 {
                        try? store.withExclusiveAccess {
                            var state = try store.load()
                            state.history.append(MigrationRecord(subject: .updateHook, identifier: nil, title: "x",
                                                                 date: .now, duration: 0, outcome: .succeeded))
                            try store.save(state)
                        }
                    }
                }
            }
        }
        #expect(try store.load().history.count == 80)
    }
}
