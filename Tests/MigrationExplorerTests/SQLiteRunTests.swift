#if SQLite
import Foundation
import GRDB
import MigrationCore
import MigrationSQLite
import MigrationTestSupport
import Testing

/// `run --sqlite` through the built binary: SQL migrations commit with their record, whatever
/// kills the runner and however many runners race.
@Suite struct SQLiteRunTests {
    /// Migration 1 creates `row` (it would fail if run twice); each later one inserts its version.
    static let versions = (1...30).map(String.init)

    private func manifest(in folder: URL) throws {
        let migrations = Self.versions.map { version in
            ["version": version, "title": "row \(version)",
             "sql": version == "1" ? "CREATE TABLE row (version TEXT NOT NULL)" : "INSERT INTO row (version) VALUES ('\(version)')"]
        }
        let manifest: [String: Any] = ["app": "Rows", "appVersion": Self.versions.last!, "migrations": migrations]
        try JSONSerialization.data(withJSONObject: manifest).write(to: folder.appendingPathComponent("rows.json"))
    }

    private let arguments = ["run", "--manifest", "rows.json", "--sqlite", "app.sqlite"]

    /// What the database holds: how many rows and successful records each version has.
    private struct Tally {
        var rows: [String: Int] = [:]
        var records: [String: Int] = [:]
        var lastMigrated: String?

        init(_ folder: URL) throws {
            let path = folder.appendingPathComponent("app.sqlite").path
            let state = try SQLiteMigrationStore(path: path).load()
            lastMigrated = state.lastMigratedVersion
            for record in state.history where record.outcome == .succeeded {
                records[record.identifier ?? "", default: 0] += 1
            }
            for version in try DatabaseQueue(path: path).read({ db in try String.fetchAll(db, sql: "SELECT version FROM row") }) {
                rows[version, default: 0] += 1
            }
        }

        /// Every row once, every migration recorded once, the mark at the last one.
        var isExactlyOnce: Bool {
            let expectedRows = Dictionary(uniqueKeysWithValues: SQLiteRunTests.versions.dropFirst().map { ($0, 1) })
            let expectedRecords = Dictionary(uniqueKeysWithValues: SQLiteRunTests.versions.map { ($0, 1) })
            return rows == expectedRows && records == expectedRecords && lastMigrated == SQLiteRunTests.versions.last
        }
    }

    @Test func aRunKilledAtRandomMomentsThenRunToTheEndAppliesEverySQLMigrationOnce() async throws {
        var random = SplitMix(state: 13)
        var killedMidway = 0
        for trial in 0..<30 {
            let folder = try makeTemporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            try manifest(in: folder)
            let runner = try await Executable.start(arguments, in: folder)
            // A random moment, slept without holding a thread; the kill goes through the
            // helper, which sends nothing once the run has ended.
            try await Task.sleep(for: .microseconds(Int.random(in: 0...250_000, using: &random)))
            runner.send(SIGKILL)
            let killed = await runner.finish()
            if killed.status != 0 { killedMidway += 1 }
            let rest = try await Executable.run(arguments, in: folder)
            #expect(rest.status == 0, "trial \(trial): \(rest.stderr)")
            let tally = try Tally(folder)
            #expect(tally.isExactlyOnce, "trial \(trial): rows \(tally.rows), records \(tally.records), mark \(tally.lastMigrated ?? "none")")
        }
        #expect(killedMidway > 0, "no kill landed during a run")
    }

    @Test(arguments: [2, 8])
    func racingRunsApplyEachSQLMigrationOnce(processes: Int) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try manifest(in: folder)
        let results = try await Executable.race(processes, arguments, in: folder)
        #expect(results.map(\.status) == Array(repeating: 0, count: processes), "\(results.map(\.stderr))")
        let tally = try Tally(folder)
        #expect(tally.isExactlyOnce, "rows \(tally.rows), records \(tally.records)")
    }

    @Test func aFileThatIsNotSQLiteIsRefusedWithExit65AndLeftUntouched() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try manifest(in: folder)
        let bytes = Data("{\"format\": 1, \"domains\": {}}".utf8)
        try bytes.write(to: folder.appendingPathComponent("app.sqlite"))
        for command in [arguments, ["plan", "--manifest", "rows.json", "--sqlite", "app.sqlite"], ["reset", "--sqlite", "app.sqlite"]] {
            let result = try await Executable.run(command, in: folder)
            #expect(result.status == 65)
            #expect(result.stderr.contains("SQLite app.sqlite (default): is not a migration record (not a SQLite database)"), "\(result.stderr)")
        }
        #expect(try Data(contentsOf: folder.appendingPathComponent("app.sqlite")) == bytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["app.sqlite", "rows.json"])
    }

    @Test(arguments: [["plan"], ["run"], ["run", "--dry-run"], ["run", "--store", "state.json"], ["run", "--store", "state.json", "--yes"]])
    func sqlWithoutASQLiteStoreIsRefusedWithExit65NamingTheMigration(command: [String]) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try manifest(in: folder)
        let result = try await Executable.run(command + ["--manifest", "rows.json"], in: folder)
        #expect(result.status == 65)
        #expect(result.stderr.contains("migrations[0] (version 1 \"row 1\") (and 29 more) runs SQL, which needs the app's database as the store: give --sqlite FILE"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["rows.json"])
    }

    @Test func aFailingCommandUndoesTheSQLOfItsMigration() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = #"""
        { "appVersion": "2", "migrations": [
            { "version": "1", "title": "table", "sql": "CREATE TABLE row (version TEXT NOT NULL)" },
            { "version": "2", "title": "row and command", "sql": "INSERT INTO row VALUES ('2')", "run": "exit 3" } ] }
        """#
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("rows.json"))
        let result = try await Executable.run(arguments, in: folder)
        #expect(result.status == 1)
        let path = folder.appendingPathComponent("app.sqlite").path
        #expect(try await DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM row") } == 0)
        let state = try SQLiteMigrationStore(path: path).load()
        #expect(state.lastMigratedVersion == "1")
        #expect(state.history.map(\.outcome) == [.succeeded, .failed])
    }

    @Test func storeAndSQLiteTogetherAreAUsageError() async throws {
        let result = try await Executable.run(["plan", "--store", "a.json", "--sqlite", "b.sqlite"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--store and --sqlite each name a store; give one of them"))
    }

    @Test func planRunSetResetAndDomainsWorkWithSQLite() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try manifest(in: folder)
        let plan = try await Executable.run(["plan", "--manifest", "rows.json", "--sqlite", "app.sqlite", "--domain", "rows"], in: folder)
        #expect(plan.stdout.contains("store: SQLite \(folder.appendingPathComponent("app.sqlite").path) (rows)"), "\(plan.stdout)")
        #expect(try await Executable.run(arguments + ["--domain", "rows"], in: folder).status == 0)
        let dryRun = try await Executable.run(arguments + ["--domain", "rows", "--dry-run"], in: folder)
        #expect(dryRun.stdout.contains("nothing to do"), "\(dryRun.stdout)")
        let set = try await Executable.run(["set", "--sqlite", "app.sqlite", "--domain", "rows", "--version", "20"], in: folder)
        #expect(set.status == 0, "\(set.stderr)")
        let replay = try await Executable.run(["plan", "--manifest", "rows.json", "--sqlite", "app.sqlite", "--domain", "rows"], in: folder)
        #expect(replay.stdout.contains("10 pending"), "\(replay.stdout)")
        let reset = try await Executable.run(["reset", "--sqlite", "app.sqlite"], in: folder)
        #expect(reset.status == 0)
        #expect(reset.stdout.contains("domain \"rows\": forgot last migrated version 20, last app version 20"), "\(reset.stdout)")
        let state = try SQLiteMigrationStore(path: folder.appendingPathComponent("app.sqlite").path, domain: "rows").load()
        #expect(state.lastMigratedVersion == nil)
        #expect(state.history.last?.subject == .reset)
    }
}
#endif
