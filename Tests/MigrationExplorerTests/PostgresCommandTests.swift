#if PostgreSQL
import Foundation
import MigrationTestSupport
import MigrationCore
import MigrationPostgres
import ThrowawayPostgresServer
import Testing
@testable import MigrationExplorer

/// `--postgres` through the built binary, against the test process's throwaway server: SQL
/// migrations commit with their record whatever kills the runner or cuts its connection, and
/// however many runners race; faults are named before anything runs.
/// Serialized: each test blocks a thread of the concurrency pool while its processes run.
@Suite(.serialized) struct PostgresCommandTests {
    /// Migration 1 creates `row` (it would fail if run twice); each later one inserts its version.
    static let versions = (1...20).map(String.init)

    /// A folder with `rows.json`, and a database of its own.
    struct Fixture {
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
        func waitForSleepingMigration() async throws -> Bool {
            try await waitUntil(timeout: 30) { try answer("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'DO %pg_sleep%' AND state = 'active'") == "1" }
        }
    }

    @Test func aRunAppliesEverySQLMigrationAndARerunNothing() async throws {
        let fixture = try Fixture()
        let first = try await Executable.run(fixture.arguments(), in: fixture.folder)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(try fixture.isExactlyOnce(), "\(fixture.tally())")
        let again = try await Executable.run(fixture.arguments(), in: fixture.folder)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(try fixture.isExactlyOnce(), "\(fixture.tally())")
        let plan = try await Executable.run(fixture.arguments("plan") + ["--json"], in: fixture.folder)
        #expect(plan.status == 0 && plan.stdout.contains("\"applied\""), "\(plan.stderr)")
    }

    @Test func aDryRunExecutesNoSQL() async throws {
        let fixture = try Fixture()
        let preview = try await Executable.run(fixture.arguments() + ["--dry-run"], in: fixture.folder)
        #expect(preview.status == 0, "\(preview.stderr)")
        #expect(try fixture.answer("SELECT to_regclass('row') IS NULL") == "t")
    }

    @Test(arguments: [2, 8, 16])
    func racingRunsApplyEachSQLMigrationOnce(processes: Int) async throws {
        let fixture = try Fixture()
        let results = try await Executable.race(processes, fixture.arguments(), in: fixture.folder)
        #expect(results.map(\.status) == Array(repeating: 0, count: processes), "\(results.map(\.stderr))")
        #expect(try fixture.isExactlyOnce(), "\(fixture.tally())")
    }

    @Test func aRunKilledAtRandomMomentsThenRunToTheEndAppliesEverySQLMigrationOnce() async throws {
        var random = SplitMix(state: 24)
        var killedMidway = 0
        for trial in 0..<8 {
            let fixture = try Fixture()
            defer { try? FileManager.default.removeItem(at: fixture.folder) }
            let runner = try await Executable.start(fixture.arguments(), in: fixture.folder)
            // A random moment, slept without holding a thread; the kill goes through the
            // helper, which sends nothing once the run has ended.
            try await Task.sleep(for: .microseconds(Int.random(in: 0...400_000, using: &random)))
            runner.send(SIGKILL)
            if await runner.finish().status != 0 { killedMidway += 1 }
            let rest = try await Executable.run(fixture.arguments(), in: fixture.folder)
            #expect(rest.status == 0, "trial \(trial): \(rest.stderr)")
            #expect(try fixture.isExactlyOnce(), "trial \(trial): \(fixture.tally())")
        }
        #expect(killedMidway > 0, "no kill landed during a run")
    }

    @Test func aPlanWhileARunHoldsTheLockAnswersAtOnceNamingTheHolder() async throws {
        let fixture = try Fixture(sleepingAt: "3")
        let runner = try await Executable.start(fixture.arguments(), in: fixture.folder)
        await #expect(try fixture.waitForSleepingMigration())
        // The run sleeps far longer than this deadline, which only stops a plan that waits for it.
        let plan = try #require(try await Executable.run(fixture.arguments("plan"), in: fixture.folder, endingWithin: 60),
                                "the plan was still going after 60 s: it waited for the run")
        #expect(plan.status == 0, "\(plan.stderr)")
        let host = ProcessInfo.processInfo.hostName
        #expect(plan.stderr.contains("a run is going on (\(host), pid \(runner.pid), since "), "\(plan.stderr)")
        let json = try #require(try await Executable.run(fixture.arguments("plan") + ["--json"], in: fixture.folder, endingWithin: 10), "plan --json waited for the run")
        let runs = try json.json()["runsGoingOn"] as? [[String: Any]]
        #expect(runs?.count == 1, "\(json.stdout)")
        #expect(runs?.first?["host"] as? String == host)
        #expect(runs?.first?["pid"] as? Int == Int(runner.pid))
        let since = try (runs?.first?["since"] as? String).map { try Date($0, strategy: .iso8601) }
        #expect(abs(since?.timeIntervalSinceNow ?? 100) < 60, "\(json.stdout)")
        let elsewhere = try #require(try await Executable.run(fixture.arguments("plan") + ["--json", "--schema", "elsewhere"], in: fixture.folder, endingWithin: 10))
        #expect((try elsewhere.json()["runsGoingOn"] as? [Any])?.isEmpty == true, "a run on another schema's records is another store's: \(elsewhere.stdout)")
        kill(runner.pid, SIGKILL)
        _ = await runner.finish()
        try fixture.server.terminateSessions(database: fixture.database)   // the killed runner's statement would sleep on
    }

    @Test func theUIOpenedWhileARunHoldsTheLockSaysAtOnceWhoRunsIt() async throws {
        let fixture = try Fixture(sleepingAt: "3")
        let runner = try await Executable.start(fixture.arguments(), in: fixture.folder)
        defer { kill(runner.pid, SIGKILL) }
        await #expect(try fixture.waitForSleepingMigration())
        let explorer = try Explorer(app: ExplorerApp(manifestAt: fixture.folder.appendingPathComponent("rows.json").path),
                                    options: ExplorerOptions(store: .postgres(try PostgresServer(url: fixture.url))))
        let session = await Session.opened(explorer: explorer)
        let holder = "\(ProcessInfo.processInfo.hostName), pid \(runner.pid), since "
        let screen = Render.screen(session.state, size: Size(width: 100, height: 24), unicode: true).text
        #expect(screen.contains("A run is going on (\(holder)"), "\(screen)")
        #expect(session.state.plan?.pending.count == 18, "the plan shows what the run committed so far")
    }

    /// `--schema`: the records go to that schema only, every command reads them there, and
    /// another schema's records (and the default one) stay as they were.
    @Test func aNamedSchemaHoldsTheRecordsEveryCommandReadsThereAndOtherSchemasAreUntouched() async throws {
        let fixture = try Fixture()
        let postgres = ["--postgres", fixture.url]
        let set = try await Executable.run(["set"] + postgres + ["--schema", "fleet_b", "--version", "3"], in: fixture.folder)
        #expect(set.status == 0, "\(set.stderr)")
        let fleetB = "SELECT (SELECT json_agg(m)::text FROM fleet_b.marks m) || (SELECT COALESCE(json_agg(h ORDER BY position)::text, '[]') FROM fleet_b.history h)"
        let before = try fixture.answer(fleetB)

        let run = try await Executable.run(fixture.arguments() + ["--schema", "fleet_a"], in: fixture.folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try fixture.answer("SELECT count(DISTINCT identifier) || '/' || count(*) FROM fleet_a.history WHERE outcome = 'succeeded'") == "20/20")
        #expect(try fixture.answer("SELECT last_migrated_version FROM fleet_a.marks") == "20")
        #expect(try fixture.answer("SELECT to_regnamespace('migration_explorer') IS NULL") == "t", "the default schema is not created")
        #expect(try fixture.answer(fleetB) == before)

        func pending(_ schema: [String]) async throws -> Int? {
            let plan = try await Executable.run(fixture.arguments("plan") + schema + ["--json"], in: fixture.folder)
            let migrations = try plan.json()["migrations"] as? [[String: Any]]
            return migrations?.filter { $0["status"] as? String == "pending" }.count
        }
        #expect(try await pending(["--schema", "fleet_a"]) == 0)
        #expect(try await pending(["--schema", "fleet_b"]) == 17)
        #expect(try await pending([]) == 20, "the default schema holds no records")
        let matrix = try await Executable.run(["matrix", "--manifest", "rows.json"] + postgres + ["--schema", "fleet_b", "--json"], in: fixture.folder)
        #expect(matrix.status == 0, "\(matrix.stderr)")

        let reset = try await Executable.run(["reset"] + postgres + ["--schema", "fleet_a"], in: fixture.folder)
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(try fixture.answer("SELECT last_migrated_version IS NULL FROM fleet_a.marks") == "t")
        #expect(try fixture.answer(fleetB) == before)
        #expect(try fixture.answer("SELECT count(*) FROM row") == "19", "a reset forgets the records, not the app's rows")

        let label = try Explorer(app: ExplorerApp(manifestAt: fixture.folder.appendingPathComponent("rows.json").path),
                                 options: ExplorerOptions(store: .postgres(try PostgresServer(url: fixture.url), schema: try PostgresSchemaName("fleet_a")))).storeDescription
        #expect(label.hasSuffix("(default, schema fleet_a)"), "\(label)")
    }

    @Test(arguments: [
        ("", "--schema: the name is empty; give a name, or leave --schema out for migration_explorer"),
        ("Fleet", "--schema: \"Fleet\" is not a schema name PostgreSQL takes unquoted: PostgreSQL folds unquoted names to lowercase; write fleet"),
        ("fleet-a", "\"-\" is not a letter, digit, underscore or dollar sign"),
        ("9lives", "a name starts with a letter or an underscore"),
        ("user", "user is a key word PostgreSQL reserves"),
        ("pg_fleet", "PostgreSQL keeps that name for its own system schemas"),
        ("public", "public is where the app's own tables usually are"),
        (String(repeating: "a", count: 64), "it is 64 bytes long; PostgreSQL keeps the first 63 only"),
    ])
    func aSchemaNamePostgreSQLWouldNotTakeUnquotedIsAUsageErrorBeforeAnyConnection(name: String, message: String) async throws {
        let result = try await Executable.run(["plan", "--postgres", "postgres://app@127.0.0.1:1/nowhere", "--schema", name])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test(arguments: [["plan"], ["plan", "--store", "state.json"], ["reset", "--sqlite", "app.sqlite"], ["set", "--store", "state.json", "--version", "1"]])
    func aSchemaWithoutPostgresIsAUsageError(command: [String]) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await Executable.run(command + ["--schema", "fleet"], in: folder)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--schema names the PostgreSQL schema of the records; it needs --postgres URL"), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "nothing created")
    }

    @Test func aSecondRunWaitsOnTheLockSayingForWhom() async throws {
        let fixture = try Fixture(sleepingAt: "3")
        let first = try await Executable.start(fixture.arguments(), in: fixture.folder)
        await #expect(try fixture.waitForSleepingMigration())
        let second = try await Executable.start(fixture.arguments(), in: fixture.folder)
        #expect(try await waitUntil(timeout: 30) { try fixture.answer("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted") == "1" })
        try fixture.answer("SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'DO %pg_sleep%' AND state = 'active'")
        let firstResult = await first.finish()
        #expect(firstResult.status == 1, "the cancelled statement fails its migration: \(firstResult.stderr)")
        await #expect(try fixture.waitForSleepingMigration(), "the second run takes the lock and runs the failed migration")
        try fixture.answer("SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'DO %pg_sleep%' AND state = 'active'")
        let secondResult = await second.finish()
        #expect(secondResult.stderr.contains("waiting for PostgreSQL postgres://\(fixture.server.appUser)@\(fixture.server.host):\(fixture.server.port)/\(fixture.database) (default), held by \(ProcessInfo.processInfo.hostName), pid \(first.pid)"), "\(secondResult.stderr)")
        #expect(secondResult.status == 1, "the second meets the same sleeping migration: \(secondResult.stderr)")
        #expect(try fixture.answer("SELECT count(*) FROM row WHERE version = '2'") == "1", "migration 2, before the sleeping one, applied once")
    }

    /// `--no-wait` and `--wait SECONDS` bound the wait for a database another process holds,
    /// as for a file: exit 75, `store-busy`, the holder named, and nothing run or recorded.
    @Test func aRunGivesUpOnAHeldDatabaseAtOnceOrAfterWaitSecondsNamingTheHolderAndRunsNothing() async throws {
        let fixture = try Fixture(sleepingAt: "3")
        let holder = try await Executable.start(fixture.arguments(), in: fixture.folder)
        defer { kill(holder.pid, SIGKILL) }
        await #expect(try fixture.waitForSleepingMigration())
        let heldBy = "held by \(ProcessInfo.processInfo.hostName), pid \(holder.pid), since "
        let recorded = try fixture.answer("SELECT count(*) FROM migration_explorer.history")
        for (options, gaveUp) in [(["--no-wait"], "did not wait"), (["--wait", "0.5"], "gave up waiting after 0.5 s")] {
            let refused = try #require(try await Executable.run(fixture.arguments() + options + ["--json"], in: fixture.folder, endingWithin: 20),
                                       "\(options) waited for the holder")
            #expect(refused.status == 75, "\(options): \(refused.stdout)\(refused.stderr)")
            let error = try refused.json()["error"] as? [String: Any]
            #expect(error?["kind"] as? String == "store-busy", "\(options): \(refused.stdout)")
            let message = error?["message"] as? String ?? ""
            #expect(message.contains(heldBy) && message.contains(gaveUp), "\(options): \(message)")
            #expect(refused.stderr.contains(heldBy), "\(options): \(refused.stderr)")
        }
        #expect(try fixture.answer("SELECT count(*) FROM migration_explorer.history") == recorded, "a refused run records nothing")
        #expect(try fixture.answer("SELECT string_agg(version, ',') FROM row") == "2", "a refused run runs nothing")
    }

    /// A reset with `--no-wait` gives up at once on a database a run holds, and forgets nothing.
    @Test func aResetWithNoWaitGivesUpOnADatabaseARunHoldsNamingItAndForgetsNothing() async throws {
        let fixture = try Fixture(sleepingAt: "3")
        let holder = try await Executable.start(fixture.arguments(), in: fixture.folder)
        defer { kill(holder.pid, SIGKILL) }
        await #expect(try fixture.waitForSleepingMigration())
        let reset = try #require(try await Executable.run(["reset", "--postgres", fixture.url, "--no-wait", "--json"], in: fixture.folder, endingWithin: 20),
                                 "reset --no-wait waited for the run")
        let error = try reset.json()["error"] as? [String: Any]
        #expect(reset.status == 75, "\(reset.stdout)\(reset.stderr)")
        #expect(error?["kind"] as? String == "store-busy", "\(reset.stdout)")
        let message = error?["message"] as? String ?? ""
        #expect(message.contains("held by \(ProcessInfo.processInfo.hostName), pid \(holder.pid), since ")
                    && message.contains("did not wait"), "\(message)")
        #expect(try fixture.answer("SELECT last_migrated_version FROM migration_explorer.marks") == "2", "the reset forgot nothing")
    }

    /// A wait within `--wait SECONDS` that the holder ends in time goes on as any wait does.
    @Test func aRunWhoseHolderFinishesWithinWaitSecondsGoesOnAndAppliesTheRest() async throws {
        let fixture = try Fixture(sleepingAt: "3")
        let holder = try await Executable.start(fixture.arguments(), in: fixture.folder)
        defer { kill(holder.pid, SIGKILL) }
        await #expect(try fixture.waitForSleepingMigration())
        try fixture.writeManifest(sleepingAt: nil)
        let patient = try await Executable.start(fixture.arguments() + ["--wait", "600"], in: fixture.folder)
        #expect(try await waitUntil(timeout: 30) { try fixture.answer("SELECT count(*) FROM pg_locks l JOIN pg_database d ON d.oid = l.database WHERE d.datname = current_database() AND l.locktype = 'advisory' AND NOT l.granted") == "1" })
        try fixture.answer("SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'DO %pg_sleep%' AND state = 'active'")
        let result = await patient.finish()
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("held by \(ProcessInfo.processInfo.hostName), pid \(holder.pid)"), "\(result.stderr)")
        #expect(try fixture.isExactlyOnce(), "\(fixture.tally())")
    }

    /// As for a file: the live line says what the run waits for, and who holds it.
    @Test func onATerminalTheWaitForAnotherRunIsTheLiveLine() async throws {
        let fixture = try Fixture(sleepingAt: "3")
        let first = try await Executable.start(fixture.arguments(), in: fixture.folder)
        defer { kill(first.pid, SIGKILL) }
        await #expect(try fixture.waitForSleepingMigration())
        let manifest = fixture.folder.appendingPathComponent("rows.json").path
        let tmux = try await Tmux(["run", "--manifest", manifest, "--postgres", fixture.url], width: 250, height: 10)
        let screen = try await tmux.waitFor("held by \(ProcessInfo.processInfo.hostName), pid \(first.pid), since ")
        let line = try #require(screen.split(separator: "\n").first { $0.contains("held by \(ProcessInfo.processInfo.hostName), pid \(first.pid)") })
        #expect(line.contains("s waiting for PostgreSQL postgres://") && line.contains(" (default), held by "), "\(screen)")
    }

    @Test func aConnectionCutMidRunEndsTheRunSayingSoAndTheNextRunAppliesTheRestOnce() async throws {
        let fixture = try Fixture(sleepingAt: "5")
        let runner = try await Executable.start(fixture.arguments(), in: fixture.folder)
        await #expect(try fixture.waitForSleepingMigration())
        try fixture.server.terminateSessions(database: fixture.database)
        let cut = await runner.finish()
        #expect(cut.status != 0)
        #expect((cut.stdout + cut.stderr).contains("the connection to the server was lost"), "\(cut.stdout)\(cut.stderr)")
        #expect(try fixture.answer("SELECT count(*) FROM row WHERE version = '5'") == "0")
        #expect(try fixture.answer("SELECT last_migrated_version FROM migration_explorer.marks") == "4")
        try fixture.writeManifest(sleepingAt: nil)
        let rest = try await Executable.run(fixture.arguments(), in: fixture.folder)
        #expect(rest.status == 0, "\(rest.stderr)")
        #expect(try fixture.isExactlyOnce(), "\(fixture.tally())")
    }

    /// The block's connection, on purpose (it keeps the block's lock as long as the command
    /// lives), as descriptor 7; no other socket, and standard input is `/dev/null`.
    @Test func aShellCommandInheritsTheBlocksConnectionAsDescriptor7AndNoOtherSocket() async throws {
        let fixture = try Fixture(command: "ls -l /proc/$$/fd > fds.txt")
        let result = try await Executable.run(fixture.arguments(), in: fixture.folder)
        #expect(result.status == 0, "\(result.stderr)")
        let descriptors = try fixture.folder.appendingPathComponent("fds.txt").read().split(separator: "\n")
        let sockets = descriptors.filter { $0.contains("socket:") }
        #expect(sockets.count == 1 && sockets.first?.contains(" 7 -> socket:") == true, "\(descriptors)")
        #expect(descriptors.contains { $0.contains(" 0 -> /dev/null") }, "\(descriptors)")
    }

    @Test func anUnreachableServerIsExit69NamingHostPortAndDatabase() async throws {
        let fixture = try Fixture()
        let url = "postgres://app:x@127.0.0.1:1/nowhere"
        let result = try await Executable.run(fixture.arguments(url: url), in: fixture.folder)
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.contains("127.0.0.1:1, database nowhere"), "\(result.stderr)")
        #expect(!result.stderr.contains("give --sqlite FILE or --postgres URL"), "the store was given: \(result.stderr)")
    }

    @Test func aPortOutOfRangeIsBadUsageBeforeConnecting() async throws {
        let fixture = try Fixture()
        let result = try await Executable.run(fixture.arguments(url: "postgres://app:x@127.0.0.1:99999/nowhere"), in: fixture.folder)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("port 99999"), "\(result.stderr)")
    }

    @Test func aWrongPasswordOrAMissingDatabaseIsExit65NamingThem() async throws {
        let fixture = try Fixture()
        let wrong = try await Executable.run(fixture.arguments(url: fixture.server.url(database: fixture.database, password: "wrong")), in: fixture.folder)
        #expect(wrong.status == 65, "\(wrong.stderr)")
        #expect(wrong.stderr.contains("\(fixture.server.host):\(fixture.server.port), database \(fixture.database)"), "\(wrong.stderr)")
        #expect(wrong.stderr.contains("password"), "\(wrong.stderr)")
        let missing = try await Executable.run(fixture.arguments(url: fixture.server.url(database: "no_such_database")), in: fixture.folder)
        #expect(missing.status == 65, "\(missing.stderr)")
        #expect(missing.stderr.contains("database no_such_database"), "\(missing.stderr)")
        #expect(try fixture.answer("SELECT to_regclass('row') IS NULL") == "t", "nothing ran")
    }

    @Test func thePasswordMayComeFromPGPASSWORD() async throws {
        let fixture = try Fixture()
        let url = "postgres://\(fixture.server.appUser)@\(fixture.server.host):\(fixture.server.port)/\(fixture.database)"
        let result = try await Executable.run(fixture.arguments(url: url), in: fixture.folder, environment: ["PGPASSWORD": fixture.server.appPassword])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try fixture.isExactlyOnce(), "\(fixture.tally())")
    }

    @Test func aResetForgetsTheMarksOfTheDatabase() async throws {
        let fixture = try Fixture()
        _ = try await Executable.run(fixture.arguments(), in: fixture.folder)
        let reset = try await Executable.run(["reset", "--postgres", fixture.url], in: fixture.folder)
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(try fixture.answer("SELECT last_migrated_version IS NULL FROM migration_explorer.marks") == "t")
    }

    @Test func aPlanOnADatabaseItMayNotWriteNamesTheServerByItsURLWithoutThePassword() async throws {
        let fixture = try Fixture()
        _ = try await Executable.run(fixture.arguments(), in: fixture.folder)
        try fixture.answer("REVOKE INSERT, UPDATE ON migration_explorer.marks FROM \(fixture.server.appUser)")
        let plan = try await Executable.run(fixture.arguments("plan") + ["--json"], in: fixture.folder)
        #expect(plan.status == 0, "\(plan.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(plan.stdout.utf8)) as? [String: Any])
        let unwritable = try #require(document["unwritableStore"] as? [String: Any], "\(plan.stdout)")
        let path = try #require(unwritable["path"] as? String)
        #expect(path == "postgres://\(fixture.server.appUser)@\(fixture.server.host):\(fixture.server.port)/\(fixture.database)")
        #expect(!path.contains(fixture.server.appPassword))
    }
}
#endif
