import Foundation
import MigrationCore
import MigrationPostgres
import MigrationTestSupport
import ThrowawayPostgresServer
import Testing

/// A store created with a wait limit (`lockPatience`) gives up on a lock another session holds
/// longer, with the busy error every front end knows, naming the holder; within it, it goes on.
@Suite struct PostgresLockWaitTests {
    private static let sleeping = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'DO %pg_sleep%' AND state = 'active'"
    private static let waiting = "SELECT count(*) FROM pg_locks l JOIN pg_database d ON d.oid = l.database WHERE d.datname = current_database() AND l.locktype = 'advisory' AND NOT l.granted"

    @Test(arguments: [Duration.zero, .milliseconds(300)])
    func aRunGivesUpOnABlockAnotherInstanceHoldsNamingItAndRunsNothing(lockWait: Duration) async throws {
        try await promptly { try await aRunGivesUpOnABlockAnotherInstanceHoldsNow(lockWait: lockWait) }
    }

    private func aRunGivesUpOnABlockAnotherInstanceHoldsNow(lockWait: Duration) async throws {
        let database = try TestDatabase()
        let holder = try database.store()
        let running = Task { try await runner(noteRegistry(sleepingAt: "1.1")).run(store: holder) }
        #expect(try await waitUntil { try database.answer(Self.sleeping) == "1" })
        let told = Locked(false)
        let waiter = try PostgresMigrationStore(url: database.url, lockPatience: .upTo(lockWait), onWait: { _ in told.withLock { $0 = true } })
        let report = try await runner().run(store: waiter)
        let busy = try #require(report.saveError, "\(failureText(report))")
        #expect(busy.problem == .busy(busy.reason), "\(busy)")
        #expect(busy.reason.contains("held by \(ProcessInfo.processInfo.hostName), pid \(getpid()), since "), "\(busy)")
        #expect(busy.reason.hasSuffix(lockWait == .zero ? "did not wait" : "gave up waiting after 0.3 s"), "\(busy)")
        #expect(told.value == (lockWait != .zero), "only a wait is announced")
        #expect(try database.answer("SELECT count(*) FROM migration_explorer.history") == "1", "only the holder's first migration is recorded")
        try database.server.terminateSessions(database: database.name)
        _ = try await running.value
    }

    /// The wait ends in time; the migration it waited for then runs with the database's own
    /// `lock_timeout` (the store bounds its own waits only).
    @Test func aWaitThatTheHolderEndsWithinTheLimitGoesOnAndTheMigrationsKeepTheDatabasesLockTimeout() async throws {
        try await promptly { try await aWaitThatTheHolderEndsWithinTheLimitGoesOnNow() }
    }

    private func aWaitThatTheHolderEndsWithinTheLimitGoesOnNow() async throws {
        let database = try TestDatabase()
        let holder = try database.store()
        let running = Task { try await runner(noteRegistry(sleepingAt: "1.1")).run(store: holder) }
        #expect(try await waitUntil { try database.answer(Self.sleeping) == "1" })
        let waiter = try PostgresMigrationStore(url: database.url, lockPatience: .upTo(.seconds(600)))
        var registry = MigrationRegistry(appName: "Notes")
        registry.migrate(toVersion: "1.1", title: "Note the lock timeout", postgres: { transaction, _ in
            try transaction.execute("INSERT INTO note VALUES (current_setting('lock_timeout'))")
        })
        let waiting = Task { [registry] in try await runner(registry, to: "1.1").run(store: waiter) }
        #expect(try await waitUntil { try database.answer(Self.waiting) == "1" })
        _ = try database.answer("SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'DO %pg_sleep%'")
        let held = try await running.value
        #expect(!held.succeeded, "the cancelled statement fails the holder's migration")
        let report = try await waiting.value
        #expect(report.succeeded, "\(failureText(report))")
        #expect(try database.answer("SELECT string_agg(version, ',' ORDER BY version) FROM note") == "0")
    }

    /// A write outside a run (a reset's, once no run holds it) waits in its own transaction.
    @Test func aWriteGivesUpOnTheRecordsAnotherInstanceHoldsOrGoesOnWhenTheyAreLetGoInTime() async throws {
        try await promptly { try await aWriteGivesUpOnTheRecordsAnotherInstanceHoldsNow() }
    }

    private func aWriteGivesUpOnTheRecordsAnotherInstanceHoldsNow() async throws {
        let database = try TestDatabase()
        let holder = try database.store()
        let running = Task { try await runner(noteRegistry(sleepingAt: "1.1")).run(store: holder) }
        #expect(try await waitUntil { try database.answer(Self.sleeping) == "1" })
        let impatient = try PostgresMigrationStore(url: database.url, lockPatience: .upTo(.milliseconds(200)))
        let error = #expect(throws: MigrationStoreError.self) { try impatient.update { $0 = MigrationRule.reset($0) } }
        #expect(error?.problem == error.map { .busy($0.reason) }, "\(String(describing: error))")
        #expect(error?.reason.hasPrefix("held by \(ProcessInfo.processInfo.hostName), pid \(getpid()), since ") == true, "\(String(describing: error))")
        #expect(error?.reason.hasSuffix("; gave up waiting after 0.2 s") == true, "\(String(describing: error))")
        #expect(try database.answer("SELECT last_migrated_version FROM migration_explorer.marks") == "1.0", "nothing written")

        let patient = try PostgresMigrationStore(url: database.url, lockPatience: .upTo(.seconds(600)))
        let writing = Task { try patient.update { $0 = MigrationRule.reset($0) } }
        #expect(try await waitUntil { try database.answer(Self.waiting) == "1" })
        _ = try database.answer("SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'DO %pg_sleep%'")
        _ = try await writing.value
        _ = try await running.value
        #expect(try database.answer("SELECT last_migrated_version IS NULL FROM migration_explorer.marks") == "t", "the reset landed")
    }

    @Test func aResetWithNoWaitGivesUpOnARunGoingOnAndForgetsNothing() async throws {
        try await promptly { try await aResetWithNoWaitGivesUpOnARunGoingOnNow() }
    }

    private func aResetWithNoWaitGivesUpOnARunGoingOnNow() async throws {
        let database = try TestDatabase()
        let holder = try database.store()
        let running = Task { try await runner(noteRegistry(sleepingAt: "1.1")).run(store: holder) }
        #expect(try await waitUntil { try database.answer(Self.sleeping) == "1" })
        let resetting = try PostgresMigrationStore(url: database.url, lockPatience: .noWait)
        let error = #expect(throws: MigrationStoreError.self) {
            try resetting.withoutRuns { try resetting.update { $0 = MigrationRule.reset($0) } }
        }
        #expect(error?.problem == error.map { .busy($0.reason) }, "\(String(describing: error))")
        #expect(error?.reason.contains("held by \(ProcessInfo.processInfo.hostName), pid \(getpid()), since ") == true, "\(String(describing: error))")
        #expect(try database.answer("SELECT last_migrated_version FROM migration_explorer.marks") == "1.0", "the reset forgot nothing")
        try database.server.terminateSessions(database: database.name)
        _ = try await running.value
    }
}
