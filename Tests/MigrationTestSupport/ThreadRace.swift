import Foundation
import MigrationCore

/// Many threads on **one** migrator, released at once, round after round in one process: state
/// that outlives a round (caches, observers, registries, the platform's own) is where a race
/// between deciding and recording hides. Every block must run exactly once per round.
///
/// ```swift
/// let failures = ThreadRace().roundsRunningABlockTwice { _ in (InMemoryMigrationStore(), {}) }
/// #expect(failures.isEmpty)
/// ```
public struct ThreadRace: Sendable {
    /// Threads per round.
    public var threads = 48
    /// Rounds per test of threads: `MIGRATION_RACE_ROUNDS` when set (`Scripts/thread-race` sets 1,000).
    public var rounds = Self.roundsFromEnvironment ?? 60
    /// Rounds per test of tasks: fewer by default, since their blocks are held on the threads
    /// that asynchronous runs share, and other tests of a full run wait for those.
    public var asyncRounds = Self.roundsFromEnvironment ?? 20

    private static var roundsFromEnvironment: Int? {
        ProcessInfo.processInfo.environment["MIGRATION_RACE_ROUNDS"].flatMap(Int.init)
    }

    public init() {}

    /// What every round must run: each block once.
    public static let expected = ["0.1", "0.2", "0.3", "0.4", "0.5", "build 7", "build update", "update"]

    /// The calls every thread makes, as an app's launch does.
    public static func launch(_ migrator: Migrator, _ runs: Runs) {
        for version in ["0.1", "0.2", "0.3", "0.4", "0.5"] {
            migrator.migrateToVersion(version) { runs.append(version) }
        }
        migrator.migrateToBuild("7") { runs.append("build 7") }
        migrator.applicationUpdateBlock { runs.append("update") }
        migrator.buildNumberUpdateBlock { runs.append("build update") }
    }

    /// The same calls, asynchronous.
    public static func launch(_ migrator: Migrator, _ runs: Runs) async {
        for version in ["0.1", "0.2", "0.3", "0.4", "0.5"] {
            await migrator.migrateToVersion(version) { () async in runs.append(version) }
        }
        await migrator.migrateToBuild("7") { () async in runs.append("build 7") }
        await migrator.applicationUpdateBlock { () async in runs.append("update") }
        await migrator.buildNumberUpdateBlock { () async in runs.append("build update") }
    }

    /// Rounds of ``threads`` threads calling ``launch(_:_:)`` on one migrator over the store
    /// `makeStore` gives for the round (with what removes it); the rounds in which some block
    /// did not run exactly once, with what ran and what was diagnosed. The rounds run on a
    /// thread of their own, awaited: a minute of waiting for threads must not hold one of the
    /// concurrency pool's few threads, on which other tests' tasks run.
    public func roundsRunningABlockTwice(
        _ makeStore: @escaping @Sendable (_ round: Int) throws -> (store: any MigrationStore, cleanUp: () -> Void)
    ) async throws -> [String] {
        try await onThreadOfItsOwn {
            var failures: [String] = []
            for round in 0..<rounds {
                let (store, cleanUp) = try makeStore(round)
                defer { cleanUp() }
                let (migrator, runs, diagnostics) = Self.migrator(on: store)
                releaseAtOnce(threads) { Self.launch(migrator, runs) }
                if runs.sorted != Self.expected { failures.append("round \(round): ran \(runs.sorted); \(Set(diagnostics.sorted).sorted())") }
            }
            return failures
        }
    }

    /// ``roundsRunningABlockTwice(_:)`` with ``threads`` tasks calling the asynchronous API.
    public func roundsRunningABlockTwiceAsync(
        _ makeStore: (_ round: Int) throws -> (store: any MigrationStore, cleanUp: () -> Void)
    ) async rethrows -> [String] {
        var failures: [String] = []
        for round in 0..<asyncRounds {
            let (store, cleanUp) = try makeStore(round)
            defer { cleanUp() }
            let (migrator, runs, diagnostics) = Self.migrator(on: store)
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<threads { group.addTask { await Self.launch(migrator, runs) } }
            }
            if runs.sorted != Self.expected { failures.append("round \(round): ran \(runs.sorted); \(Set(diagnostics.sorted).sorted())") }
        }
        return failures
    }

    private static func migrator(on store: any MigrationStore) -> (Migrator, runs: Runs, diagnostics: Runs) {
        let diagnostics = Runs()
        let migrator = Migrator(appVersion: "1.0", appBuild: "7", store: store, onDiagnostic: { diagnostics.append($0.description) })
        return (migrator, Runs(), diagnostics)
    }

    /// What ran, from any thread.
    public final class Runs: Sendable {
        private let items = Locked<[String]>([])
        public init() {}
        public func append(_ item: String) { items.withLock { $0.append(item) } }
        public var sorted: [String] { items.withLock { $0.sorted() } }
    }
}

/// Runs `body` on `count` threads that all start together (each waits until every one exists),
/// and returns when all have finished.
public func releaseAtOnce(_ count: Int, _ body: @escaping @Sendable () -> Void) {
    let ready = DispatchGroup()
    let finished = DispatchGroup()
    let start = DispatchSemaphore(value: 0)
    for _ in 0..<count {
        ready.enter()
        finished.enter()
        Thread.detachNewThread {
            ready.leave()
            start.wait()
            body()
            finished.leave()
        }
    }
    ready.wait()
    for _ in 0..<count { start.signal() }
    finished.wait()
}

/// Runs `body` on a thread of its own and awaits its result: for a long synchronous test body,
/// which would otherwise hold one of the concurrency pool's threads (two on a two-core machine)
/// while other tests' tasks wait for them.
///
/// ```swift
/// let sum = try await onThreadOfItsOwn { (1...1_000_000).reduce(0, +) }
/// ```
public func onThreadOfItsOwn<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}
