import Foundation
import MigrationCore
import MigrationPostgres
import MigrationTestSupport
import ThrowawayPostgresServer
import Testing

/// A network store never makes a thread of the concurrency pool wait: the async run calls it
/// from a thread of its own, and its synchronous blocks are refused anywhere else.
@Suite struct PostgresOffThePoolTests {
    /// More runs than the pool has threads, each held inside its body until the test lets go:
    /// while they are held, a task on the pool still runs.
    @Test func asyncRunsLeaveTheConcurrencyPoolFreeWhileTheyWaitOnTheServer() async throws {
        let database = try TestDatabase()
        let runs = ProcessInfo.processInfo.activeProcessorCount + 2
        let entered = Locked(0)
        let release = DispatchSemaphore(value: 0)
        var registry = MigrationRegistry(appName: "Held")
        registry.migrate(toVersion: "1.0", title: "Held", postgres: { transaction, _ in
            entered.withLock { $0 += 1 }
            release.wait()
            try transaction.execute("SELECT 1")
        })
        let held = try runner(registry, to: "1.0")
        let stores = try (0..<runs).map { try database.store(domain: "instance \($0)") }
        // The tables made first: the first write makes them in its block's transaction, which
        // the other domains' blocks would wait for.
        try database.store(domain: "setup").save(.freshInstall)
        // Watched from a thread of its own, which always lets the bodies go: a starved pool
        // could not run the test's own waits. Other tests hold threads of the pool for a while
        // (a child process, a server); the deadlines are for a pool that never comes back.
        let seen = Locked<(allHeld: Bool, poolAnswered: Bool)?>(nil)
        Thread.detachNewThread {
            let allHeld = blockingWaitUntil(timeout: 120) { entered.value == runs }
            let answered = Locked(false)
            Task.detached(priority: .high) { answered.withLock { $0 = true } }
            let poolAnswered = blockingWaitUntil(timeout: 60) { answered.value }
            seen.withLock { $0 = (allHeld, poolAnswered) }
            for _ in 0..<runs { release.signal() }
        }
        let reports = try await withThrowingTaskGroup(of: RunReport.self) { group in
            for store in stores { group.addTask(priority: .high) { try await held.run(store: store) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(await waitUntil { seen.value != nil })
        #expect(seen.value?.allHeld == true, "only \(entered.value) of \(runs) runs reached their body at once")
        #expect(seen.value?.poolAnswered == true, "a task on the pool did not run while the runs waited")
        #expect(reports.allSatisfy { $0.succeeded }, "\(reports.map { failureText($0) })")
    }

    @Test func aSynchronousRunInsideATaskIsRefusedSayingWhy() async throws {
        let database = try TestDatabase()
        let report = try runSynchronously(runner(), on: database.store())
        #expect(failureText(report).contains("is a network store"), "\(failureText(report))")
        #expect(try database.count("note") == nil)
    }

    /// The synchronous run, which an async test would not pick by itself.
    private func runSynchronously(_ runner: MigrationRunner, on store: PostgresMigrationStore) throws -> RunReport {
        try runner.run(store: store)
    }
}
