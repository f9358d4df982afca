import Foundation
import MigrationCore
import Testing

/// What a launch with nothing pending costs a run: one read of the store, no lock, no write
/// check. On a network store every call is a round trip to the server.
@Suite struct NothingToDoRunTests {
    /// A store that counts what a run asks of it.
    final class CountingStore: MigrationStore, @unchecked Sendable {
        let inner: InMemoryMigrationStore
        private let counts = Locked<[String: Int]>([:])
        var location: String { "counting store" }

        init(_ state: MigrationState) { inner = InMemoryMigrationStore(state: state) }

        func count(_ call: String) -> Int { counts.withLock { $0[call] ?? 0 } }
        private func note(_ call: String) { counts.withLock { $0[call, default: 0] += 1 } }

        func load() throws -> MigrationState { note("load"); return inner.load() }
        func save(_ state: MigrationState) throws { note("save"); inner.save(state) }
        func checkWritable() throws { note("checkWritable") }
        func withExclusiveAccess<T>(_ body: () throws -> T) throws -> T { note("exclusive"); return try inner.withExclusiveAccess(body) }
    }

    private func runner() throws -> MigrationRunner {
        var registry = MigrationRegistry(appName: "Boot")
        registry.migrate(toVersion: "1.0", title: "First") { _ in }
        registry.migrate(toVersion: "1.1", title: "Second") { _ in }
        return MigrationRunner(registry: registry, target: try AppTarget(version: "1.1"))
    }

    private var upToDate: MigrationState {
        MigrationState(lastMigratedVersion: "1.1", lastAppVersion: "1.1", history: [])
    }

    @Test func aRunWithNothingToDoReadsTheStoreOnceAndTakesNoLock() throws {
        let store = CountingStore(upToDate)
        let report = try runner().run(store: store)
        #expect(report.steps.isEmpty && report.succeeded)
        #expect(report.state.lastMigratedVersion == "1.1")
        #expect(store.count("load") == 1)
        #expect(store.count("checkWritable") == 0)
        #expect(store.count("exclusive") == 0 && store.count("save") == 0)
    }

    @Test func anAsyncRunWithNothingToDoReadsTheStoreOnceAndTakesNoLock() async throws {
        let store = CountingStore(upToDate)
        let report = try await runner().run(store: store)
        #expect(report.steps.isEmpty && report.succeeded)
        #expect(store.count("load") == 1)
        #expect(store.count("checkWritable") == 0)
        #expect(store.count("exclusive") == 0 && store.count("save") == 0)
    }

    @Test func aRunWithSomethingToDoStillChecksTheStoreCanBeWritten() throws {
        let store = CountingStore(MigrationState(lastMigratedVersion: "1.0", lastAppVersion: "1.0", history: []))
        let report = try runner().run(store: store)
        #expect(report.steps.map(\.outcome) == [.succeeded])
        #expect(store.count("checkWritable") >= 1)
    }
}
