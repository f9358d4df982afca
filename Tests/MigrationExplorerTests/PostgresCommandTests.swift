import Foundation
import MigrationTestSupport
import MigrationCore
import MigrationPostgres
import PostgresTestServer
import Testing

/// `--postgres` through the built binary, against the test process's throwaway server: SQL
/// migrations commit with their record whatever kills the runner or cuts its connection, and
/// however many runners race; faults are named before anything runs.
/// Serialized: each test blocks a thread of the concurrency pool while its processes run.
@Suite(.serialized) struct PostgresCommandTests {
    /// Migration 1 creates `row` (it would fail if run twice); each later one inserts its version.
    static let versions = (1...20).map(String.init)

    /// A folder with `rows.json`, and a database of its own.
    private struct Fixture {
        let folder: URL
        let server: ThrowawayPostgres
        let url: String
        var database: String { String(url.split(separator: "/").last ?? "") }

        init(sleepingAt sleeping: String? = nil, command: String? = nil) throws {
            folder = try makeTemporaryFolder()
            server = try ThrowawayPostgres.shared()
            url = try server.createDatabase()
            try writeManifest(sleepingAt: sleeping, command: command)
        }

        /// Writes `rows.json`; the migration `sleeping` sleeps 300 s after its insert: longer
        /// than any deadline of a test, each of which ends it (cancelled, cut or terminated).
        func writeManifest(sleepingAt sleeping: String?, command: String? = nil) throws {
            let migrations = PostgresCommandTests.versions.map { version -> [String: String] in
                var sql = version == "1" ? "CREATE TABLE row (version text NOT NULL)" : "INSERT INTO row (version) VALUES ('\(version)')"
                if version == sleeping { sql += "; SELECT pg_sleep(300)" }
                var migration = ["version": version, "title": "row \(version)", "sql": sql]
                if version == "2", let command { migration["run"] = command }
                return migration
            }
            let manifest: [String: Any] = ["app": "Rows", "appVersion": PostgresCommandTests.versions.last!, "migrations": migrations]
            try JSONSerialization.data(withJSONObject: manifest).write(to: folder.appendingPathComponent("rows.json"))
        }

        func arguments(_ command: String = "run", url: String? = nil) -> [String] {
            [command, "--manifest", "rows.json", "--postgres", url ?? self.url]
        }

        @discardableResult
        func answer(_ sql: String) throws -> String { try server.psql(sql, database: database) }

        /// Whether every row is there once, every migration recorded once, the mark at the last.
        func isExactlyOnce() throws -> Bool {
            let rows = try answer("SELECT string_agg(version || ':' || n, ',' ORDER BY version::int) FROM (SELECT version, count(*) n FROM row GROUP BY version) c")
            let records = try answer("SELECT count(DISTINCT identifier) || '/' || count(*) FROM migration_explorer.history WHERE outcome = 'succeeded'")
            let mark = try answer("SELECT last_migrated_version FROM migration_explorer.marks")
            let expectedRows = PostgresCommandTests.versions.dropFirst().map { "\($0):1" }.joined(separator: ",")
            return rows == expectedRows && records == "\(PostgresCommandTests.versions.count)/\(PostgresCommandTests.versions.count)"
                && mark == PostgresCommandTests.versions.last
        }

        func tally() -> String {
            let rows = (try? answer("SELECT count(*) FROM row")) ?? "no table"
            let records = (try? answer("SELECT count(*) FROM migration_explorer.history WHERE outcome = 'succeeded'")) ?? "none"
            return "rows \(rows), records \(records)"
        }

        /// Polls until a session of the ordinary role runs `pg_sleep`.
        func waitForSleepingMigration() throws -> Bool {
            try waitUntil(timeout: 30) { try answer("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'DO %pg_sleep%' AND state = 'active'") == "1" }
        }
    }

    @Test func aRunAppliesEverySQLMigrationAndARerunNothing() throws {
        let fixture = try Fixture()
        let first = try Executable.run(fixture.arguments(), in: fixture.folder)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try fixture.isExactlyOnce(), "\(fixture.tally())")
        let again = try Executable.run(fixture.arguments(), in: fixture.folder)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try fixture.isExactlyOnce(), "\(fixture.tally())")
        let plan = try Executable.run(fixture.arguments("plan") + ["--json"], in: fixture.folder)
        #expect(plan.status == 0 && plan.stdout.contains("\"applied\""), "\(plan.stderr)")
    }

    @Test func aDryRunExecutesNoSQL() throws {
        let fixture = try Fixture()
        let preview = try Executable.run(fixture.arguments() + ["--dry-run"], in: fixture.folder)
        #expect(preview.status == 0, "\(preview.stderr)")
        #expect(try fixture.answer("SELECT to_regclass('row') IS NULL") == "t")
    }

    @Test(arguments: [2, 8, 16])
    func racingRunsApplyEachSQLMigrationOnce(processes: Int) throws {
        let fixture = try Fixture()
        let runners = try (0..<processes).map { _ in try Executable.start(fixture.arguments(), in: fixture.folder) }
        let results = runners.map(Executable.finish)
        #expect(results.map(\.status) == Array(repeating: 0, count: processes), "\(results.map(\.stderr))")
        #expect(try fixture.isExactlyOnce(), "\(fixture.tally())")
    }

    @Test func aRunKilledAtRandomMomentsThenRunToTheEndAppliesEverySQLMigrationOnce() throws {
        var random = SplitMix64(seed: 24)
        var killedMidway = 0
        for trial in 0..<8 {
            let fixture = try Fixture()
            defer { try? FileManager.default.removeItem(at: fixture.folder) }
            let runner = try Executable.start(fixture.arguments(), in: fixture.folder)
            usleep(UInt32.random(in: 0...400_000, using: &random))
            kill(runner.process.processIdentifier, SIGKILL)
            if Executable.finish(runner).status != 0 { killedMidway += 1 }
            let rest = try Executable.run(fixture.arguments(), in: fixture.folder)
            #expect(rest.status == 0, "trial \(trial): \(rest.stderr)")
            #expect(try fixture.isExactlyOnce(), "trial \(trial): \(fixture.tally())")
        }
        #expect(killedMidway > 0, "no kill landed during a run")
    }

    @Test func aPlanWhileARunHoldsTheLockAnswersAtOnceNamingTheHolder() throws {
        let fixture = try Fixture(sleepingAt: "3")
        let runner = try Executable.start(fixture.arguments(), in: fixture.folder)
        #expect(try fixture.waitForSleepingMigration())
        // The run sleeps far longer than this deadline, which only stops a plan that waits for it.
        let plan = try #require(try Executable.run(fixture.arguments("plan"), in: fixture.folder, endingWithin: 60),
                                "the plan was still going after 60 s: it waited for the run")
        #expect(plan.status == 0, "\(plan.stderr)")
        let host = ProcessInfo.processInfo.hostName
        #expect(plan.stderr.contains("a run is going on (\(host), pid \(runner.process.processIdentifier), since "), "\(plan.stderr)")
        kill(runner.process.processIdentifier, SIGKILL)
        _ = Executable.finish(runner)
        try fixture.server.terminateSessions(database: fixture.database)   // the killed runner's statement would sleep on
    }

    @Test func aSecondRunWaitsOnTheLockSayingForWhom() throws {
        let fixture = try Fixture(sleepingAt: "3")
        let first = try Executable.start(fixture.arguments(), in: fixture.folder)
        #expect(try fixture.waitForSleepingMigration())
        let second = try Executable.start(fixture.arguments(), in: fixture.folder)
        #expect(try waitUntil(timeout: 30) { try fixture.answer("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted") == "1" })
        try fixture.answer("SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'DO %pg_sleep%' AND state = 'active'")
        let firstResult = Executable.finish(first)
        #expect(firstResult.status == 1, "the cancelled statement fails its migration: \(firstResult.stderr)")
        #expect(try fixture.waitForSleepingMigration(), "the second run takes the lock and runs the failed migration")
        try fixture.answer("SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'DO %pg_sleep%' AND state = 'active'")
        let secondResult = Executable.finish(second)
        #expect(secondResult.stderr.contains("waiting for the migration that \(ProcessInfo.processInfo.hostName), pid \(first.process.processIdentifier)"), "\(secondResult.stderr)")
        #expect(secondResult.status == 1, "the second meets the same sleeping migration: \(secondResult.stderr)")
        #expect(try fixture.answer("SELECT count(*) FROM row WHERE version = '2'") == "1", "migration 2, before the sleeping one, applied once")
    }

    @Test func aConnectionCutMidRunEndsTheRunSayingSoAndTheNextRunAppliesTheRestOnce() throws {
        let fixture = try Fixture(sleepingAt: "5")
        let runner = try Executable.start(fixture.arguments(), in: fixture.folder)
        #expect(try fixture.waitForSleepingMigration())
        try fixture.server.terminateSessions(database: fixture.database)
        let cut = Executable.finish(runner)
        #expect(cut.status != 0)
        #expect((cut.stdout + cut.stderr).contains("the connection to the server was lost"), "\(cut.stdout)\(cut.stderr)")
        #expect(try fixture.answer("SELECT count(*) FROM row WHERE version = '5'") == "0")
        #expect(try fixture.answer("SELECT last_migrated_version FROM migration_explorer.marks") == "4")
        try fixture.writeManifest(sleepingAt: nil)
        let rest = try Executable.run(fixture.arguments(), in: fixture.folder)
        #expect(rest.status == 0, "\(rest.stderr)")
        #expect(try fixture.isExactlyOnce(), "\(fixture.tally())")
    }

    @Test func aShellCommandInheritsNoDatabaseSocket() throws {
        let fixture = try Fixture(command: "ls -l /proc/$$/fd > fds.txt")
        let result = try Executable.run(fixture.arguments(), in: fixture.folder)
        #expect(result.status == 0, "\(result.stderr)")
        let descriptors = try fixture.folder.appendingPathComponent("fds.txt").read()
        #expect(!descriptors.isEmpty)
        #expect(!descriptors.contains("socket:"), "\(descriptors)")
    }

    @Test func anUnreachableServerIsExit69NamingHostPortAndDatabase() throws {
        let fixture = try Fixture()
        let url = "postgres://app:x@127.0.0.1:1/nowhere"
        let result = try Executable.run(fixture.arguments(url: url), in: fixture.folder)
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.contains("127.0.0.1:1, database nowhere"), "\(result.stderr)")
    }

    @Test func aWrongPasswordOrAMissingDatabaseIsExit65NamingThem() throws {
        let fixture = try Fixture()
        let wrong = try Executable.run(fixture.arguments(url: fixture.server.url(database: fixture.database, password: "wrong")), in: fixture.folder)
        #expect(wrong.status == 65, "\(wrong.stderr)")
        #expect(wrong.stderr.contains("\(fixture.server.host):\(fixture.server.port), database \(fixture.database)"), "\(wrong.stderr)")
        #expect(wrong.stderr.contains("password"), "\(wrong.stderr)")
        let missing = try Executable.run(fixture.arguments(url: fixture.server.url(database: "no_such_database")), in: fixture.folder)
        #expect(missing.status == 65, "\(missing.stderr)")
        #expect(missing.stderr.contains("database no_such_database"), "\(missing.stderr)")
        #expect(try fixture.answer("SELECT to_regclass('row') IS NULL") == "t", "nothing ran")
    }

    @Test func thePasswordMayComeFromPGPASSWORD() throws {
        let fixture = try Fixture()
        let url = "postgres://\(fixture.server.appUser)@\(fixture.server.host):\(fixture.server.port)/\(fixture.database)"
        let result = try Executable.run(fixture.arguments(url: url), in: fixture.folder, environment: ["PGPASSWORD": fixture.server.appPassword])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try fixture.isExactlyOnce(), "\(fixture.tally())")
    }

    @Test func aResetForgetsTheMarksOfTheDatabase() throws {
        let fixture = try Fixture()
        _ = try Executable.run(fixture.arguments(), in: fixture.folder)
        let reset = try Executable.run(["reset", "--postgres", fixture.url], in: fixture.folder)
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(try fixture.answer("SELECT last_migrated_version IS NULL FROM migration_explorer.marks") == "t")
    }
}
