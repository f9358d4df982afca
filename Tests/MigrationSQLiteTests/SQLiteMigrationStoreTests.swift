import Foundation
import GRDB
import MigrationCore
import MigrationSQLite
import MigrationTestSupport
import Testing

@Suite struct SQLiteMigrationStoreTests {
    /// An app database with a `note` table, in a fresh folder.
    private func appDatabase() throws -> (folder: URL, path: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("app.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "CREATE TABLE note (id INTEGER PRIMARY KEY, text TEXT NOT NULL)") }
        return (folder, path)
    }

    private func notes(in path: String) throws -> [String] {
        try DatabaseQueue(path: path).read { db in try String.fetchAll(db, sql: "SELECT text FROM note ORDER BY id") }
    }

    private struct Refused: Error {}

    @Test("a database body commits its rows with its record, or neither when it throws after writing", arguments: [false, true])
    func aDatabaseBodyCommitsWithItsRecord(throwsAfterWriting: Bool) throws {
        let (folder, path) = try appDatabase()
        defer { try? FileManager.default.removeItem(at: folder) }
        var registry = MigrationRegistry()
        registry.migrate(toVersion: "1.0", title: "Welcome note", database: { db, _ in
            try db.execute(sql: "INSERT INTO note (text) VALUES ('welcome')")
            if throwsAfterWriting { throw Refused() }
        })
        let store = SQLiteMigrationStore(path: path)
        let report = try MigrationRunner(registry: registry, target: try AppTarget(version: "1.0")).run(store: store)
        let state = try store.load()
        #expect(report.succeeded == !throwsAfterWriting)
        #expect(try notes(in: path) == (throwsAfterWriting ? [] : ["welcome"]))
        #expect(state.lastMigratedVersion == (throwsAfterWriting ? nil : "1.0"))
        #expect(state.history.map(\.outcome) == [throwsAfterWriting ? .failed : .succeeded])
    }

    @Test func aDatabaseBodyWithAnotherStoreFailsAndDoesNothing() throws {
        var registry = MigrationRegistry()
        registry.migrate(toBuild: "7", title: "Needs a database", database: { _, _ in Issue.record("ran without a database") })
        let store = InMemoryMigrationStore()
        let report = try MigrationRunner(registry: registry, target: try AppTarget(version: "1.0", build: "7")).run(store: store)
        #expect(report.failure?.outcome == .failed(
            "build 7 \"Needs a database\" works in a SQLite database and runs only with a SQLiteMigrationStore on that database as its store; nothing was run"))
        #expect(store.load().lastMigratedBuild == nil)
    }

    @Test func recordsRoundTripPerDomainAndOnlyGrowTheHistory() throws {
        let (folder, path) = try appDatabase()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = SQLiteMigrationStore(path: path, domain: "database")
        let record = MigrationRecord(subject: .versionMigration, identifier: "1.0", title: "A", date: Date(timeIntervalSince1970: 1_700_000_000),
                                     duration: 0.5, outcome: .failed, error: "boom")
        var state = MigrationState(lastMigratedVersion: "1.0", lastAppBuild: "12", history: [record], historyIsComplete: true)
        try store.save(state)
        state.history.append(MigrationRecord(subject: .reset, identifier: nil, title: "reset", date: record.date, duration: 0, outcome: .succeeded))
        try store.save(state)
        let loaded = try store.load()
        #expect(loaded.lastMigratedVersion == "1.0" && loaded.lastAppBuild == "12" && loaded.lastMigratedBuild == nil)
        #expect(loaded.history == state.history)
        #expect(loaded.historyIsComplete)
        #expect(try store.loadMarks().history.isEmpty)
        #expect(try SQLiteMigrationStore(path: path).load() == .freshInstall)
        #expect(try store.domains() == ["database"])
        #expect(store.location == "SQLite \(path) (database)")
    }

    @Test func readingAnAppDatabaseCreatesNothingAndTheFirstWriteUsesWALWithoutALockFile() throws {
        let (folder, path) = try appDatabase()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = SQLiteMigrationStore(path: path)
        #expect(try store.load() == .freshInstall)
        let tables = { try DatabaseQueue(path: path).read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") } }
        #expect(try tables() == ["note"])
        try store.update { $0.lastAppVersion = "1.0" }
        #expect(try tables() == ["migration_explorer_attempts", "migration_explorer_history", "migration_explorer_marks", "note"])
        let mode = try DatabaseQueue(path: path).read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!files.contains { $0.hasSuffix(".lock") })
    }

    @Test(arguments: [
        ("not a database", Data("{\"format\": 1, \"domains\": {}}\n".utf8 + Data(repeating: 0x41, count: 4096))),
        ("garbage", Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })),
    ])
    func aFileThatIsNotSQLiteIsRefusedAndLeftUntouched(name: String, bytes: Data) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("\(name).sqlite").path
        try bytes.write(to: URL(fileURLWithPath: path))
        let store = SQLiteMigrationStore(path: path)
        #expect(throws: MigrationStoreError(location: store.location, problem: .corrupt("not a SQLite database"))) { try store.load() }
        #expect(throws: MigrationStoreError(location: store.location, problem: .corrupt("not a SQLite database"))) {
            try store.update { $0.lastMigratedVersion = "1.0" }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["\(name).sqlite"])
    }

    @Test func tablesOfOurNameWithOtherColumnsAreRefusedAndLeftUntouched() throws {
        let (folder, path) = try appDatabase()
        defer { try? FileManager.default.removeItem(at: folder) }
        try DatabaseQueue(path: path).write { db in
            try db.execute(sql: "CREATE TABLE migration_explorer_marks (domain TEXT, version INTEGER)")
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let store = SQLiteMigrationStore(path: path)
        let expected = MigrationStoreError(location: store.location, problem: .corrupt(
            "its table migration_explorer_marks has other columns (domain TEXT, version INTEGER) than this package writes; it belongs to something else"))
        #expect(throws: expected) { try store.load() }
        var registry = MigrationRegistry()
        registry.migrate(toVersion: "1.0", title: "Never", database: { _, _ in Issue.record("ran against a foreign table") })
        #expect(throws: expected) { try MigrationRunner(registry: registry, target: try AppTarget(version: "1.0")).run(store: store) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test func eightThreadsRunADatabaseMigrationOnce() async throws {
        let (folder, path) = try appDatabase()
        defer { try? FileManager.default.removeItem(at: folder) }
        var registry = MigrationRegistry()
        registry.migrate(toVersion: "1.0", title: "Once", database: { db, _ in
            try db.execute(sql: "INSERT INTO note (text) VALUES ('once')")
        })
        let runner = MigrationRunner(registry: registry, target: try AppTarget(version: "1.0"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { _ = try runner.run(store: SQLiteMigrationStore(path: path)) }
            }
            try await group.waitForAll()
        }
        #expect(try notes(in: path) == ["once"])
        #expect(try SQLiteMigrationStore(path: path).load().history.filter { $0.outcome == .succeeded }.count == 1)
    }

    @Test(.timeLimit(.minutes(1)))
    func anAsyncRunRecordsItsDatabaseBodiesAndTheAppVersion() async throws {
        let (folder, path) = try appDatabase()
        defer { try? FileManager.default.removeItem(at: folder) }
        var registry = MigrationRegistry()
        registry.migrate(toVersion: "1.0", title: "Welcome note", database: { db, _ in
            try db.execute(sql: "INSERT INTO note (text) VALUES ('welcome')")
        })
        registry.onUpdate(title: "What's New") { _ in }
        let store = SQLiteMigrationStore(path: path)
        let report = try await MigrationRunner(registry: registry, target: try AppTarget(version: "1.0")).run(store: store)
        #expect(report.steps.map(\.outcome) == [.succeeded, .succeeded])
        #expect(try notes(in: path) == ["welcome"])
        let state = try store.load()
        #expect(state.lastMigratedVersion == "1.0" && state.lastAppVersion == "1.0")
    }

    @Test func eachStepAppendsItsRecordAfterTheHistoryOfItsDomainOnly() throws {
        let (folder, path) = try appDatabase()
        defer { try? FileManager.default.removeItem(at: folder) }
        let earlier = MigrationRecord(subject: .versionMigration, identifier: "0.9", title: "Earlier", date: Date(timeIntervalSince1970: 1_700_000_000),
                                      duration: 0.1, outcome: .succeeded, error: nil)
        try SQLiteMigrationStore(path: path, domain: "other").save(MigrationState(history: [earlier, earlier]))
        let store = SQLiteMigrationStore(path: path)
        try store.save(MigrationState(lastMigratedVersion: "0.9", history: [earlier], historyIsComplete: true))
        var registry = MigrationRegistry()
        for version in ["1.0", "1.1", "1.2"] { registry.migrate(toVersion: version, title: "To \(version)") { _ in } }
        let report = try MigrationRunner(registry: registry, target: try AppTarget(version: "1.2")).run(store: store)
        #expect(report.succeeded)
        #expect(try store.load().history.map(\.identifier) == ["0.9", "1.0", "1.1", "1.2"])
        #expect(try SQLiteMigrationStore(path: path, domain: "other").load().history.count == 2)
        let positions = try DatabaseQueue(path: path).read { db in
            try Int.fetchAll(db, sql: "SELECT position FROM migration_explorer_history WHERE domain = 'default' ORDER BY position")
        }
        #expect(positions == [0, 1, 2, 3])
    }
}

/// Many threads on one migrator over one SQLite database, round after round. (Asynchronous
/// blocks are refused by this store: it commits a block with its record in one transaction.)
@Suite struct SQLiteThreadsOnOneMigratorTests {
    let race = ThreadRace()

    private func store(_ folder: URL, round: Int) -> (store: any MigrationStore, cleanUp: () -> Void) {
        (SQLiteMigrationStore(path: folder.appendingPathComponent("app-\(round).sqlite").path), {})
    }

    @Test func threadsOnOneMigratorOverSQLiteRunEachBlockOnce() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-threads-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let failures = try await race.roundsRunningABlockTwice { store(folder, round: $0) }
        #expect(failures.isEmpty, "\(failures.count) of \(race.rounds) rounds: \(failures.prefix(3))")
    }
}
