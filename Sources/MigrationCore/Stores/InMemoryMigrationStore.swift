/// A store that keeps its state in memory: for tests, previews and simulated upgrades.
///
/// ```swift
/// let store = InMemoryMigrationStore(state: .device(at: try Version("0.8")))
/// ```
public final class InMemoryMigrationStore: MigrationStore {
    private let state: Locked<MigrationState>
    let resource = StoreResource()
    let cache = MarksCache()
    public let isSandbox = true
    public var location: String { "memory" }

    /// A store that starts with `state` (by default a fresh install).
    ///
    /// ```swift
    /// let store = InMemoryMigrationStore()
    /// ```
    public init(state: MigrationState = .freshInstall) {
        self.state = Locked(state)
    }

    public func load() -> MigrationState { state.withLock { $0 } }

    /// The marks, without the history (so that holding them never makes appending copy it).
    public func loadMarks() -> MigrationState {
        cachedMarks().state
    }

    public func save(_ newState: MigrationState) {
        state.withLock { $0 = newState }
        cache.invalidate()
    }

    /// Sets the marks and appends `records` to the history.
    public func saveMarks(_ marks: MigrationState, appending records: [MigrationRecord]) {
        let written = state.withLock { state in
            state.takeStep(marks, appending: records)
            return Self.withoutHistory(state)
        }
        cache.remember(written)
    }

    func cachedMarks() -> MarksCache.Entry {
        cache.marks { Self.withoutHistory(load()) }
    }

    private static func withoutHistory(_ state: MigrationState) -> MigrationState {
        var marks = state
        marks.history = []
        return marks
    }

    public func withExclusiveAccess<T>(_ body: () throws -> T) throws -> T {
        try resource.withRecords(body)
    }

    public func withExclusiveAccess<T>(toBlock block: String, _ body: (_ alreadyRunning: Bool) throws -> T) throws -> T {
        try resource.withBlock(block, body)
    }
}

extension InMemoryMigrationStore: RecordsAttempts {
    public func loadAttempts() -> [MigrationAttempt] { load().attempts }

    public func saveAttempts(_ attempts: [MigrationAttempt]) {
        state.withLock { $0.attempts = attempts }
    }
}
