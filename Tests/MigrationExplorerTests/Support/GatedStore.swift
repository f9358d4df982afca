import Foundation
import MigrationCore
@testable import MigrationExplorer

/// A gate a test holds shut to delay a store's answers, as a server behind a slow link does;
/// every load and save waits until it opens (a minute at most, so a failing test does not hang).
///
/// ```swift
/// let gate = StoreGate()
/// defer { gate.open() }
/// ```
final class StoreGate: Sendable {
    private let state = NSCondition()
    // Safe: only touched with `state` locked.
    nonisolated(unsafe) private var isOpen = false
    nonisolated(unsafe) private var waiting = 0

    /// Lets every waiting and later call through.
    func open() { set(open: true) }

    /// Holds every later call until ``open()``.
    func close() { set(open: false) }

    /// How many calls wait at the gate now.
    var waiters: Int {
        state.lock()
        defer { state.unlock() }
        return waiting
    }

    func pass() {
        state.lock()
        defer { state.unlock() }
        waiting += 1
        let deadline = Date() + 60
        while !isOpen, state.wait(until: deadline) {}
        waiting -= 1
    }

    private func set(open: Bool) {
        state.lock()
        isOpen = open
        state.broadcast()
        state.unlock()
    }
}

/// A real JSON file store whose every answer waits at a ``StoreGate``.
struct GatedStore: RealStore {
    let store: FileMigrationStore
    let gate: StoreGate

    var displayPath: String { store.displayPath }
    var name: String { store.name }
    var lockDescriptor: Int32? { store.lockDescriptor }
    var location: String { store.location }

    func load() throws -> MigrationState {
        gate.pass()
        return try store.load()
    }

    func save(_ state: MigrationState) throws {
        gate.pass()
        try store.save(state)
    }

    func checkWritable() throws {
        gate.pass()
        try store.checkWritable()
    }

    func recordedDomains() throws -> [String?] {
        gate.pass()
        return try store.recordedDomains()
    }

    func changes() throws -> AsyncStream<StoreChange> { try store.changes() }

    func withExclusiveAccess<T>(_ body: () throws -> T) throws -> T { try store.withExclusiveAccess(body) }
}
