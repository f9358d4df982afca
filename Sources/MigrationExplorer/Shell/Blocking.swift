import Foundation
import MigrationCore

/// Runs `operation` to its end from synchronous code, such as a migration body, which the
/// plan's walk calls synchronously while it holds the store's lock.
///
/// The calling thread waits; the operation runs on the concurrency pool, so the caller
/// must not be one of the pool's threads. It runs at the caller's priority: a run of high
/// priority must not wait for its command behind every task of default priority.
///
/// The pool starts its threads itself and says nothing when the system refuses one (too
/// little address space): a task may then never start. One that has not started within
/// ``blockingStartDeadline`` is given up, never to run, and the wait ends with ``NotStarted``,
/// rather than holding the store's lock for ever.
///
/// ```swift
/// let status = try blocking { try await Subprocess.run(.path("/bin/true")).terminationStatus }
/// ```
func blocking<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) throws -> T {
    let outcome = BlockingOutcome<T>()
    let done = DispatchSemaphore(value: 0)
    Task.detached(priority: Task.currentPriority) {
        guard outcome.start() else { return }
        do { outcome.finish(.success(try await operation())) } catch { outcome.finish(.failure(error)) }
        done.signal()
    }
    while done.wait(timeout: .now() + blockingStartDeadline) == .timedOut {
        if outcome.giveUpUnlessStarted() { throw NotStarted() }
    }
    return try outcome.result.get()
}

/// The concurrency pool did not start the operation in time: it could not start a thread.
struct NotStarted: Error, CustomStringConvertible {
    var description: String {
        "the concurrency runtime could not start a thread within \(Int(blockingStartDeadline)) s (too little memory or too many threads?)"
    }
}

/// How long an operation may take to start before the pool is taken to have no thread for it:
/// long enough that a pool only busy (every thread held by other runs' commands for a while)
/// is never taken for one that cannot grow.
private let blockingStartDeadline = 60.0

/// Carries the result from the pool to the waiting thread, and whether the operation started
/// or was given up, under a lock.
private final class BlockingOutcome<T: Sendable>: Sendable {
    private enum Phase {
        case waiting, started, givenUp
        case finished(Result<T, Error>)
    }

    private let phase = Locked(Phase.waiting)

    /// Marks the operation started; `false` when it was given up, and must not run.
    func start() -> Bool {
        phase.withLock { phase in
            guard case .waiting = phase else { return false }
            phase = .started
            return true
        }
    }

    func finish(_ result: Result<T, Error>) {
        phase.withLock { $0 = .finished(result) }
    }

    /// Gives the operation up when it has not started; whether it was.
    func giveUpUnlessStarted() -> Bool {
        phase.withLock { phase in
            guard case .waiting = phase else { return false }
            phase = .givenUp
            return true
        }
    }

    /// The result; only once finished.
    var result: Result<T, Error> {
        phase.withLock { phase in
            guard case .finished(let result) = phase else { preconditionFailure("read before the operation finished") }
            return result
        }
    }
}
