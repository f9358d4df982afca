import Foundation

/// Runs `operation` to its end from synchronous code, such as a migration body, which the
/// plan's walk calls synchronously while it holds the store's lock.
///
/// The calling thread waits; the operation runs on the concurrency pool, so the caller
/// must not be one of the pool's threads. It runs at the caller's priority: a run of high
/// priority must not wait for its command behind every task of default priority.
///
/// ```swift
/// let status = try blocking { try await Subprocess.run(.path("/bin/true")).terminationStatus }
/// ```
func blocking<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) throws -> T {
    let outcome = BlockingOutcome<T>()
    let done = DispatchSemaphore(value: 0)
    Task.detached(priority: Task.currentPriority) {
        do { outcome.result = .success(try await operation()) } catch { outcome.result = .failure(error) }
        done.signal()
    }
    done.wait()
    return try outcome.result!.get()
}

/// Carries the result from the pool to the waiting thread; the semaphore orders the accesses.
private final class BlockingOutcome<T: Sendable>: @unchecked Sendable {
    var result: Result<T, Error>?
}
