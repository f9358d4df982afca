/// Where a ``MigrationState`` is kept. Stores only load and save; they decide nothing.
///
/// ```swift
/// let store: any MigrationStore = FileMigrationStore(url: URL(filePath: "state.json"))
/// try store.withExclusiveAccess {
///     var state = try store.load()
///     state.lastMigratedVersion = "1.0"
///     try store.save(state)
/// }
/// ```
public protocol MigrationStore: Sendable {
    /// Where the records live, for people: "memory", a file path, "UserDefaults (domain)".
    var location: String { get }

    /// Whether the store is a throwaway copy (a simulation or sandbox) rather than a real record.
    var isSandbox: Bool { get }

    /// The recorded state; a store with no records yet gives ``MigrationState/freshInstall``.
    /// - Throws: ``MigrationStoreError`` when the records exist but cannot be read or parsed.
    func load() throws -> MigrationState

    /// Replaces the recorded state, all or nothing.
    /// - Throws: ``MigrationStoreError`` when it cannot be written; the old records stay.
    func save(_ state: MigrationState) throws

    /// Runs `body` while no other thread (and, for stores shared between processes, no other
    /// process) holds the same store. Calls may nest on one thread.
    func withExclusiveAccess<T>(_ body: () throws -> T) throws -> T
}

extension MigrationStore {
    public var isSandbox: Bool { false }
}
