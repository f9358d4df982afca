import Foundation
import MigrationCore
import MigrationTestSupport
import Testing

/// A store written outside the package, through the public API only, gets the exclusion of
/// runs from resets across processes that the package's own stores have.
@Suite("A store of another package", .onThreadOfItsOwn)
struct ThirdPartyStoreTests {
    private struct SawTheRun: Error {}

    @Test func aResetMadeThroughAnotherProcessesViewOfTheRecordsSeesARunGoingOn() async throws {
        let records = InMemoryMigrationStore()
        let lockFile = FileManager.default.temporaryDirectory.appendingPathComponent("runs-\(UUID().uuidString).lock").path
        defer { try? FileManager.default.removeItem(atPath: lockFile) }
        let running = SharedRecordsStore(records: records, location: "the records, as the runner names them", lockFile: lockFile)
        let resetting = SharedRecordsStore(records: records, location: "the records, as another process names them", lockFile: lockFile)
        let started = Locked(false), release = Locked(false)
        var registry = MigrationRegistry()
        registry.migrate(toVersion: "1.0", title: "Slow") { _ in
            started.withLock { $0 = true }
            _ = blockingWaitUntil { release.withLock { $0 } }
        }
        let runner = MigrationRunner(registry: registry, target: try AppTarget(version: "1.0"))
        let finished = Locked<RunReport?>(nil)
        Thread { finished.withLock { $0 = try? runner.run(store: running) } }.start()
        defer { release.withLock { $0 = true } }
        await #expect(waitUntil { started.withLock { $0 } }, "the run did not start")
        #expect(throws: SawTheRun.self) { try resetting.withoutRuns(onWait: { throw SawTheRun() }) {} }
        release.withLock { $0 = true }
        await #expect(waitUntil { finished.withLock { $0 != nil } }, "the run did not end")
        #expect(finished.withLock { $0?.succeeded } == true)
    }
}

/// One set of records seen through a store object of its own, as each process would: the
/// records are shared, the location names differ, and the run exclusion is a lock file.
private struct SharedRecordsStore: MigrationStore, ExcludesRunsAcrossProcesses {
    let records: InMemoryMigrationStore
    let location: String
    let lockFile: String

    var runExclusion: RunExclusion { .lockFile(lockFile) }

    func load() throws -> MigrationState { records.load() }
    func save(_ state: MigrationState) throws { records.save(state) }
    func withExclusiveAccess<T>(_ body: () throws -> T) throws -> T { try records.withExclusiveAccess(body) }
}
