import Foundation
import MigrationTestSupport
import Testing
@testable import MigrationCore

/// `Migrator.reset()` while a registry run on the same store is going on, in one process: the
/// reset waits for the run, so the store ends as the run followed by the reset leaves it.
@Suite("A reset during a run, in process")
struct ResetDuringRunTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case memory, file
        var testDescription: String { rawValue }
    }

    /// A store of `kind`, and what removes what it left on disk.
    func makeStore(_ kind: Kind) -> (any MigrationStore, cleanUp: () -> Void) {
        switch kind {
        case .memory:
            return (InMemoryMigrationStore(), {})
        case .file:
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reset-during-run-\(UUID().uuidString)")
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return (FileMigrationStore(url: folder.appendingPathComponent("state.json")), { try? FileManager.default.removeItem(at: folder) })
        }
    }

    /// Six migrations; the third starts a reset on another thread and returns once that thread
    /// is about to call it, so the reset comes while the run is going on.
    func registry(resettingFrom store: any MigrationStore) -> MigrationRegistry {
        var registry = MigrationRegistry(appName: "App")
        for index in 1...6 {
            registry.migrate(toVersion: "0.\(index)", title: "m\(index)") { _ in
                guard index == 3 else { return }
                let started = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    started.signal()
                    Migrator(appVersion: "1.0", store: store).reset()
                }
                started.wait()
            }
        }
        return registry
    }

    /// Whether `state` is what the run and then the reset leave: every migration recorded,
    /// then the reset, and no marks.
    func isRunThenReset(_ state: MigrationState) -> Bool {
        let history = state.history.map { $0.subject == .reset ? "reset" : $0.identifier ?? "" }
        return history == ["0.1", "0.2", "0.3", "0.4", "0.5", "0.6", "reset"]
            && RecordedMark.allCases.allSatisfy { state[$0] == nil }
    }

    /// The store once the reset started by the run is recorded; `nil` when it is not within
    /// 30 s (the reset hangs).
    func afterTheReset(_ store: any MigrationStore) async throws -> MigrationState? {
        var state = try store.load()
        let recorded = try await waitUntil {
            state = try store.load()
            return state.history.contains { $0.subject == .reset }
        }
        return recorded ? state : nil
    }

    @Test(arguments: Kind.allCases)
    func aMigratorResetDuringARegistryRunWaitsForIt(kind: Kind) async throws {
        var nonSerializable = 0, hung = 0
        for _ in 0..<20 {
            let (store, cleanUp) = makeStore(kind)
            defer { cleanUp() }
            let runner = MigrationRunner(registry: registry(resettingFrom: store), target: try AppTarget(version: "1.0"))
            // The synchronous run (an async test would pick the async one), on a thread of its own.
            let box = StoreBox(store: store)
            _ = try await onThreadOfItsOwn { try runner.run(store: box.store) }
            guard let state = try await afterTheReset(store) else { hung += 1; continue }
            if !isRunThenReset(state) { nonSerializable += 1 }
        }
        #expect(nonSerializable == 0, "\(nonSerializable) of 20")
        #expect(hung == 0, "the reset was not recorded 30 s after the run in \(hung) of 20")
    }

    /// A store handed to a thread of its own; stores are used from any thread.
    struct StoreBox: @unchecked Sendable {
        let store: any MigrationStore
    }

    @Test(arguments: Kind.allCases)
    func aMigratorResetDuringAnAsyncRegistryRunWaitsForIt(kind: Kind) async throws {
        var nonSerializable = 0, hung = 0
        for _ in 0..<20 {
            let (store, cleanUp) = makeStore(kind)
            defer { cleanUp() }
            let runner = MigrationRunner(registry: registry(resettingFrom: store), target: try AppTarget(version: "1.0"))
            _ = try await runner.run(store: store)
            guard let state = try await afterTheReset(store) else { hung += 1; continue }
            if !isRunThenReset(state) { nonSerializable += 1 }
        }
        #expect(nonSerializable == 0, "\(nonSerializable) of 20")
        #expect(hung == 0, "the reset was not recorded 30 s after the run in \(hung) of 20")
    }

    @Test func aResetFromInsideARunOfTheSameStoreIsRefusedRatherThanWaitingForItself() throws {
        let store = InMemoryMigrationStore()
        var registry = MigrationRegistry(appName: "App")
        let refusal = Locked<String?>(nil)
        registry.migrate(toVersion: "0.1", title: "resets") { _ in
            Migrator(appVersion: "1.0", store: store, onDiagnostic: { diagnostic in refusal.withLock { $0 = diagnostic.problem } }).reset()
        }
        let runner = MigrationRunner(registry: registry, target: try AppTarget(version: "1.0"))
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            _ = try? runner.run(store: store)
            done.signal()
        }
        try #require(done.wait(timeout: .now() + 30) == .success, "the run was still waiting for its own reset after 30 s")
        #expect(refusal.value?.contains("from inside a run of the same store") == true, "\(refusal.value ?? "no diagnostic")")
        #expect(store.load().lastMigratedVersion == "0.1")
    }
}
