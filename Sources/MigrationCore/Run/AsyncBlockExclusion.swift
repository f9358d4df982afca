import Foundation

/// A block's exclusion while an asynchronous body runs, with no thread of the cooperative pool
/// ever waiting:
/// - tasks of this process that want the same block on the same resource queue in an
///   ``AsyncGate``: they suspend, one at a time goes in;
/// - the task that goes in holds the store's own block lock (which threads of synchronous
///   callers, and with a ``FileMigrationStore`` other processes, also take) on a thread of its
///   own, which may block on it (``ThreadHeldBlock``);
/// - a task-local list of the blocks the current task holds tells a body that calls its own
///   block again, synchronously or not, that it is already running.
enum AsyncBlockExclusion {
    /// The blocks the current task is inside, by ``key(_:of:)``.
    @TaskLocal static var held: Set<String> = []

    private static let gate = AsyncGate()

    /// Runs `body` holding `block` of `store`, across suspension points. `body` learns whether
    /// the current task is already inside the same block.
    nonisolated(nonsending) static func withBlock<T>(
        _ block: String, of store: any MigrationStore,
        _ body: nonisolated(nonsending) (_ alreadyRunning: Bool) async throws -> T
    ) async throws -> T {
        let key = key(block, of: store)
        if held.contains(key) { return try await body(true) }
        await gate.enter(key)
        defer { gate.leave(key) }
        let hold = try await ThreadHeldBlock.acquire(block, of: store)
        let result: Result<T, any Error>
        do {
            result = .success(try await $held.withValue(held.union([key])) { try await body(hold.alreadyRunning) })
        } catch {
            result = .failure(error)
        }
        await hold.release()
        return try result.get()
    }

    /// Whether the current task holds `block` of `store`: a synchronous call for it from inside
    /// its own asynchronous body must not wait for itself.
    static func isHeld(_ block: String, of store: any MigrationStore) -> Bool {
        let held = held
        return !held.isEmpty && held.contains(key(block, of: store))
    }

    /// One name per resource and block: this package's stores by their shared resource (every
    /// store object on one file is one resource), others by their location.
    private static func key(_ block: String, of store: any MigrationStore) -> String {
        let resource = (store as? any ResourceBacked).map { "\(ObjectIdentifier($0.resource))" } ?? store.location
        return resource + "\u{0}" + block
    }
}

/// A store of this package, whose exclusion belongs to a shared ``StoreResource``.
protocol ResourceBacked {
    var resource: StoreResource { get }
    /// Which records of the resource it keeps (a file's domain); `""` for a resource that
    /// holds one set.
    var recordsOnResource: String { get }
}

extension ResourceBacked {
    var recordsOnResource: String { "" }
}

extension InMemoryMigrationStore: ResourceBacked {}
extension UserDefaultsMigrationStore: ResourceBacked {}

extension FileMigrationStore: ResourceBacked {
    var resource: StoreResource { file.resource }
    var recordsOnResource: String { "json " + domain }
}

extension PropertyListMigrationStore: ResourceBacked {
    var resource: StoreResource { file.resource }
    var recordsOnResource: String { "plist " + (domain ?? "") }
}

/// Tasks waiting for the same key, each suspended until the one before it leaves.
final class AsyncGate: Sendable {
    private let queues = Locked<[String: [CheckedContinuation<Void, Never>]]>([:])

    /// Returns once the caller is the only one inside `key`.
    func enter(_ key: String) async {
        await withCheckedContinuation { continuation in
            let waits = queues.withLock { queues in
                guard queues[key] != nil else {
                    queues[key] = []
                    return false
                }
                queues[key]?.append(continuation)
                return true
            }
            if !waits { continuation.resume() }
        }
    }

    /// Lets the next waiter in, if any.
    func leave(_ key: String) {
        let next = queues.withLock { queues -> CheckedContinuation<Void, Never>? in
            guard let queue = queues[key], let first = queue.first else {
                queues[key] = nil
                return nil
            }
            queues[key] = Array(queue.dropFirst())
            return first
        }
        next?.resume()
    }
}

/// A store's block lock, held by a thread of its own until ``release()``: the store's lock
/// (and a file's `flock`) may block, and only this thread waits for it.
final class ThreadHeldBlock: Sendable {
    /// Whether the store found the block already running on the holding thread (never, for a
    /// fresh thread; kept for stores that decide otherwise).
    var alreadyRunning: Bool { state.withLock { $0.alreadyRunning } }

    private let released = DispatchSemaphore(value: 0)
    private let state = Locked<(alreadyRunning: Bool, done: CheckedContinuation<Void, Never>?, exited: Bool)>((false, nil, false))

    private init() {}

    /// Takes `block` of `store` on a new thread; returns once it is held.
    /// - Throws: whatever the store throws when it cannot take the lock, or
    ///   ``DetachedThread/StartFailure`` when no thread could be started.
    static func acquire(_ block: String, of store: any MigrationStore) async throws -> ThreadHeldBlock {
        let hold = ThreadHeldBlock()
        try await withCheckedThrowingContinuation { (acquired: CheckedContinuation<Void, any Error>) in
            let pending = Locked<CheckedContinuation<Void, any Error>?>(acquired)
            do {
                try DetachedThread.start(name: "holding a block") {
                    do {
                        try store.withExclusiveAccess(toBlock: block) { alreadyRunning in
                            hold.state.withLock { $0.alreadyRunning = alreadyRunning }
                            pending.withLock { $0.take() }?.resume()
                            hold.released.wait()
                        }
                    } catch {
                        pending.withLock { $0.take() }?.resume(throwing: error)
                    }
                    hold.exit()
                }
            } catch {
                pending.withLock { $0.take() }?.resume(throwing: error)
            }
        }
        return hold
    }

    /// Lets the lock go; returns once the holding thread has given it back.
    func release() async {
        await withCheckedContinuation { done in
            let exited = state.withLock { state in
                state.done = done
                return state.exited
            }
            released.signal()
            if exited { state.withLock { $0.done.take() }?.resume() }
        }
    }

    private func exit() {
        state.withLock { state in
            state.exited = true
            return state.done.take()
        }?.resume()
    }
}
