/// A store that keeps its state in memory: for tests, previews and simulated upgrades.
///
/// ```swift
/// let store = InMemoryMigrationStore(state: .device(at: try Version("0.8")))
/// ```
public final class InMemoryMigrationStore: MigrationStore, MarksCaching {
    private let state: Locked<MigrationState>
    private let resource = StoreResource()
    private let cache = MarksCache()
    public let isSandbox = true
    public var location: String { "memory" }

    public init(state: MigrationState = .freshInstall) {
        self.state = Locked(state)
    }

    public func load() -> MigrationState { state.withLock { $0 } }

    public func save(_ newState: MigrationState) {
        state.withLock { $0 = newState }
        cache.invalidate()
    }

    func cachedMarks() -> MarksCache.Entry {
        cache.marks { load() }
    }

    public func withExclusiveAccess<T>(_ body: () throws -> T) throws -> T {
        try resource.withRecords(body)
    }

    public func withExclusiveAccess<T>(toBlock block: String, _ body: (_ alreadyRunning: Bool) throws -> T) throws -> T {
        try resource.withBlock(block, body)
    }
}
