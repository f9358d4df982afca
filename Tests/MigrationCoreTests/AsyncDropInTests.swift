import Foundation
import Testing
@testable import MigrationCore

/// The drop-in API with `async` blocks: the synchronous rules, across suspension points.
@Suite("Async drop-in")
struct AsyncDropInTests {
    struct ImportFailed: Error {}

    @Test func asyncBlocksRunOnceInCallOrderBesideSynchronousOnes() async throws {
        let store = InMemoryMigrationStore(state: .device(at: try Version("0.9"), build: try Version("10")))
        let migrator = Migrator(appVersion: "1.2", appBuild: "12", store: store)
        let ran = Recorder<String>()
        for _ in 0..<2 {
            await migrator.migrateToVersion("1.0") {
                await Task.yield()
                ran.append("1.0")
            }
            migrator.migrateToVersion("1.1") { ran.append("1.1") }
            await migrator.migrateToVersion("1.2") { () async in ran.append("1.2") }
            await migrator.migrateToVersion("0.8") { () async in ran.append("0.8") }               // below the mark
            await migrator.migrateToBuild("11") { () async in ran.append("b11") }
            await migrator.applicationUpdateBlock { () async in ran.append("update") }
            await migrator.buildNumberUpdateBlock { () async in ran.append("build update") }
        }
        #expect(ran.items == ["1.0", "1.1", "1.2", "b11", "update", "build update"])
        #expect(store.load().lastMigratedVersion == "1.2")
        #expect(store.load().lastAppBuild == "12")
    }

    @Test func anAsyncBlockThatThrowsRethrowsItsOwnErrorAndRunsAgain() async throws {
        let migrator = Migrator(appVersion: "1.0", store: InMemoryMigrationStore())
        var attempts = 0
        do {
            try await migrator.migrateToVersion("1.0") { () async throws(ImportFailed) in
                attempts += 1
                throw ImportFailed()
            }
            Issue.record("the block's error was not rethrown")
        } catch {
            #expect(type(of: error) == ImportFailed.self)
        }
        await migrator.migrateToVersion("1.0") { () async in attempts += 1 }
        await migrator.migrateToVersion("1.0") { () async in attempts += 1 }
        #expect(attempts == 2)
    }

    @Test func aCancelledBlockIsNotRecordedAndRunsNextTime() async throws {
        let store = InMemoryMigrationStore()
        let migrator = Migrator(appVersion: "1.0", store: store)
        await #expect(throws: CancellationError.self) {
            try await migrator.migrateToVersion("1.0") { () async throws in throw CancellationError() }
        }
        #expect(store.load().history.isEmpty)
        var ran = false
        await migrator.migrateToVersion("1.0") { () async in ran = true }
        #expect(ran)
    }

    @Test(arguments: ["memory", "file", "defaults"])
    func aHundredTasksRunAnAsyncBlockOnce(storeKind: String) async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let suite = "migration-async-\(UUID().uuidString)"
        defer { UserDefaults().removePersistentDomain(forName: suite) }
        let store: any MigrationStore = switch storeKind {
        case "file": FileMigrationStore(url: folder.appendingPathComponent("state.json"))
        case "defaults": UserDefaultsMigrationStore(defaults: UserDefaults(suiteName: suite)!)
        default: InMemoryMigrationStore()
        }
        let runs = Recorder<Int>()
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<100 {
                group.addTask {
                    // A migrator per task, so that only the store's resource is shared.
                    let migrator = Migrator(appVersion: "2.0", store: store)
                    await migrator.migrateToVersion("2.0") {
                        for _ in 0..<5 { await Task.yield() }
                        try? await Task.sleep(nanoseconds: 1_000_000)
                        runs.append(task)
                    }
                }
            }
        }
        #expect(runs.items.count == 1)
        #expect(try store.load().lastMigratedVersion == "2.0")
    }

    @Test func threadsAndTasksTogetherRunABlockOnce() async throws {
        let store = InMemoryMigrationStore()
        let runs = Recorder<String>()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask {
                    let migrator = Migrator(appVersion: "1.0", store: store)
                    if index.isMultiple(of: 2) {
                        await migrator.migrateToVersion("1.0") {
                            try? await Task.sleep(nanoseconds: 2_000_000)
                            runs.append("async")
                        }
                    } else {
                        let done = DispatchSemaphore(value: 0)
                        Thread.detachNewThread {
                            migrator.migrateToVersion("1.0") { runs.append("sync") }
                            done.signal()
                        }
                        await withCheckedContinuation { continuation in
                            Thread.detachNewThread {
                                done.wait()
                                continuation.resume()
                            }
                        }
                    }
                }
            }
        }
        #expect(runs.items.count == 1)
    }

    @Test func aBlockThatCallsItselfDoesNotWaitForItself() async throws {
        let migrator = Migrator(appVersion: "1.0", store: InMemoryMigrationStore())
        let ran = Recorder<String>()
        await migrator.migrateToVersion("1.0") {
            ran.append("outer")
            await migrator.migrateToVersion("1.0") { () async in ran.append("async inner") }
            migrator.migrateToVersion("1.0") { ran.append("sync inner") }
            await migrator.migrateToVersion("0.9") { () async in ran.append("another block") }
        }
        #expect(ran.items == ["outer", "another block"])
    }

    @MainActor final class Model {
        var imported = 0
    }

    @Test @MainActor func aBlockRunsInTheCallersIsolation() async throws {
        let model = Model()
        let migrator = Migrator(appVersion: "1.0", store: InMemoryMigrationStore())
        await migrator.migrateToVersion("1.0") {
            MainActor.assertIsolated()
            await Task.yield()
            model.imported += 1
        }
        #expect(model.imported == 1)
    }
}

extension AsyncDropInTests {
    /// An executor of one thread at a time, standing for a cooperative pool that a blocked
    /// thread would starve: the tests in parallel share the real pool, so it cannot be used.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    final class OneThreadExecutor: TaskExecutor {
        private let queue = DispatchQueue(label: "one thread")

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
        }
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func waitingForAnotherProcessesLockHoldsNoThreadOfThePool() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("state.json")
        // Another "process": a lock of its own on the store's lock file (`flock` belongs to the
        // open file, so a second descriptor in this process excludes like another process).
        let other = open(url.path + ".lock", O_RDWR | O_CREAT, 0o644)
        #expect(flock(other, LOCK_EX) == 0)
        // A watchdog, so that a blocked executor fails the test instead of hanging it: it lets
        // the lock go if the test has not ended within 60 s. It ends with the test, before the
        // descriptor is closed (whose number another test may have by then).
        let released = Locked(false), ended = DispatchSemaphore(value: 0), watchdogDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            if ended.wait(timeout: .now() + 60) == .timedOut {
                released.withLock { $0 = true }
                flock(other, LOCK_UN)
            }
            watchdogDone.signal()
        }
        defer {
            ended.signal()
            watchdogDone.wait()
            close(other)
        }
        let executor = OneThreadExecutor()
        let runs = Recorder<String>()
        let waiting = (1...8).map { minor in
            Task(executorPreference: executor) {
                let migrator = Migrator(appVersion: "1.8", store: FileMigrationStore(url: url))
                await migrator.migrateToVersion("1.\(minor)") { () async in runs.append("1.\(minor)") }
            }
        }
        // Had a waiter blocked the executor's one thread, this could not run on it before the
        // watchdog let the lock go. (It looks on the executor itself: the test's own task is on
        // the shared pool, which other tests may keep busy.)
        let seen = await Task(executorPreference: executor) { (released: released.withLock { $0 }, runs: runs.items) }.value
        #expect(!seen.released, "the executor was blocked until the watchdog let the lock go after 60 s")
        #expect(seen.runs.isEmpty, "nothing runs while another process holds the store")
        flock(other, LOCK_UN)
        for task in waiting { await task.value }
        #expect(Set(runs.items).count == runs.items.count)
    }
}
