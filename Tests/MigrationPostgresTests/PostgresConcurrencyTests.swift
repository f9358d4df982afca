import Foundation
import MigrationCore
import MigrationPostgres
import MigrationTestSupport
import ThrowawayPostgresServer
import Testing

/// Many instances against one database, a connection cut mid-run, the holder named.
@Suite struct PostgresConcurrencyTests {
    @Test(arguments: [2, 8, 16])
    func instancesRacingRunApplyEachSQLMigrationOnce(instances: Int) async throws {
        let database = try TestDatabase()
        let stores = try (0..<instances).map { _ in try database.store() }
        let reports = try await withThrowingTaskGroup(of: RunReport.self) { group in
            for store in stores {
                group.addTask { try await runner().run(store: store) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(reports.filter { !$0.succeeded }.isEmpty, "\(reports.map(failureText))")
        #expect(try database.answer("SELECT string_agg(version, ',' ORDER BY version) FROM note") == "1.1,1.2")
        let ran = reports.map { $0.steps.filter { $0.outcome == .succeeded }.count }.reduce(0, +)
        #expect(ran == 3, "\(ran) migrations ran across \(instances) instances")
        #expect(try database.answer("SELECT count(*) FROM migration_explorer.history WHERE outcome = 'succeeded'") == "3")
    }

    @Test func aConnectionCutMidRunCommitsNothingAndTheNextRunAppliesItOnce() async throws {
        try await promptly { try await aConnectionCutMidRunCommitsNothingAndTheNextRunAppliesItOnceNow() }
    }

    private func aConnectionCutMidRunCommitsNothingAndTheNextRunAppliesItOnceNow() async throws {
        let database = try TestDatabase()
        let store = try database.store()
        let running = Task { try await runner(noteRegistry(sleepingAt: "1.2")).run(store: store) }
        #expect(try await waitUntil { try database.answer("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'DO %pg_sleep%' AND state = 'active'") == "1" })
        #expect(try database.server.terminateSessions(database: database.name) >= 1)
        let report = try await running.value
        let failure = failureText(report)
        #expect(failure.contains("the connection to the server was lost"), "\(failure)")
        #expect(try database.answer("SELECT string_agg(version, ',') FROM note") == "1.1")
        #expect(try database.store().load().lastMigratedVersion == "1.1")
        let rest = try await runner().run(store: try database.store())
        #expect(rest.succeeded)
        #expect(try database.answer("SELECT string_agg(version, ',' ORDER BY version) FROM note") == "1.1,1.2")
    }

    @Test func aWaitingInstanceIsToldWhoHoldsTheLockAndTheHolderIsVisibleToAPlan() async throws {
        try await promptly { try await aWaitingInstanceIsToldWhoHoldsTheLockAndTheHolderIsVisibleToAPlanNow() }
    }

    private func aWaitingInstanceIsToldWhoHoldsTheLockAndTheHolderIsVisibleToAPlanNow() async throws {
        let database = try TestDatabase()
        let first = try database.store()
        let beforeTheRun = Date()
        let running = Task { try await runner(noteRegistry(sleepingAt: "1.1")).run(store: first) }
        #expect(try await waitUntil { try database.answer("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'DO %pg_sleep%' AND state = 'active'") == "1" })
        let observer = try database.store()
        let holders = try observer.runHolders()
        #expect(holders.map(\.pid) == [getpid()])
        #expect(holders.first?.host == ProcessInfo.processInfo.hostName)
        // Since when: between the run's start and now (to the whole second the holder records).
        let since = try #require(holders.first?.since)
        #expect(since >= beforeTheRun.addingTimeInterval(-1) && since <= Date(), "since \(since), the run started at \(beforeTheRun)")
        #expect(try runner().plan(store: observer).pending.count == 2, "a plan reads what is committed, without waiting")
        let told = Locked<[PostgresLockHolder]?>(nil)
        let waiting = try database.store(onWait: { holders in told.withLock { $0 = holders } })
        let waiter = Task { try await runner().run(store: waiting) }
        #expect(await waitUntil { told.value != nil })
        #expect(told.value?.map(\.pid) == [getpid()])
        try database.server.terminateSessions(database: database.name) // ends the sleeping run (and the waiter's session)
        _ = try await running.value
        _ = try await waiter.value
    }
}
