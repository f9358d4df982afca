import Foundation
@testable import MigrationCore

/// A thread-safe list that tests append to from bodies and tasks.
final class Recorder<Item: Sendable>: Sendable {
    private let storage = Locked<[Item]>([])
    func append(_ item: Item) { storage.withLock { $0.append(item) } }
    var items: [Item] { storage.withLock { $0 } }
}

/// A store whose every call fails, to test failure paths.
struct FailingMigrationStore: MigrationStore {
    var location: String { "failing store" }
    func load() throws -> MigrationState {
        throw MigrationStoreError(location: location, problem: .unreadable("always fails"))
    }
    func save(_ state: MigrationState) throws {
        throw MigrationStoreError(location: location, problem: .unwritable("always fails"))
    }
    func withExclusiveAccess<T>(_ body: () throws -> T) throws -> T { try body() }
}

/// A store that reads fine but refuses the `n`th save and every one after it.
final class SaveRefusingStore: MigrationStore {
    let inner = InMemoryMigrationStore()
    private let savesLeft: Locked<Int>
    var location: String { "refusing store" }
    init(allowedSaves: Int) {
        savesLeft = Locked(allowedSaves)
    }
    func load() throws -> MigrationState { inner.load() }
    func save(_ state: MigrationState) throws {
        try savesLeft.withLock { left in
            guard left > 0 else { throw MigrationStoreError(location: location, problem: .unwritable("disk full")) }
            left -= 1
            inner.save(state)
        }
    }
    func withExclusiveAccess<T>(_ body: () throws -> T) throws -> T { try inner.withExclusiveAccess(body) }
}

/// `inner` as a store whose blocks commit with their record, as a database's transaction does:
/// a store becomes one by conforming, nothing else.
struct CommittingStore<Inner: MigrationStore>: TransactionalMigrationStore {
    let inner: Inner
    var location: String { inner.location }
    func load() throws -> MigrationState { try inner.load() }
    func save(_ state: MigrationState) throws { try inner.save(state) }
    func withExclusiveAccess<T>(_ body: () throws -> T) throws -> T { try inner.withExclusiveAccess(body) }
    func withExclusiveAccess<T>(toBlock block: String, _ body: (Bool) throws -> T) throws -> T {
        try inner.withExclusiveAccess(toBlock: block, body)
    }
}

/// A fresh temporary folder, removed by the caller's `defer`.
func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("migration-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// `UserDefaults` handed to concurrent tasks: it is documented as thread-safe.
struct SharedDefaults: @unchecked Sendable {
    let defaults: UserDefaults
}

/// A store that reads fine but cannot be written, as one on a read-only file system: every
/// save is refused, and so is the proof, asked before a body runs, that it can write.
final class ReadOnlyStore: MigrationStore {
    let inner: InMemoryMigrationStore
    var location: String { "read-only store" }
    init(state: MigrationState) { inner = InMemoryMigrationStore(state: state) }
    private var refusal: MigrationStoreError { MigrationStoreError(location: location, problem: .unwritable("read-only file system")) }
    func load() throws -> MigrationState { inner.load() }
    func save(_ state: MigrationState) throws { throw refusal }
    func prepareToWrite() throws { throw refusal }
    func withExclusiveAccess<T>(_ body: () throws -> T) throws -> T { try inner.withExclusiveAccess(body) }
}
