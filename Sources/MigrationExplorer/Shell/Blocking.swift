import Foundation
import MigrationCore

/// Runs `operation` to its end from synchronous code, such as a migration body, which the
/// plan's walk calls synchronously while it holds the store's lock.
///
/// The calling thread waits; the operation runs on a thread of its own (its task prefers it,
/// where the platform has task executors), not on the concurrency pool, which other runs'
/// work may keep busy: it starts at once whatever the pool does, and when the system starts
/// no thread the caller is told so at once, rather than after a guessed deadline. It runs at
/// the caller's priority.
///
/// ```swift
/// let status = try blocking { try await Subprocess.run(.path("/bin/true")).terminationStatus }
/// ```
/// - Throws: what `operation` throws, or ``DetachedThread/StartFailure`` when no thread could
///   be started for it (then it never ran).
func blocking<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) throws -> T {
    let outcome = Locked<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    let work: @Sendable () async -> Void = {
        let result: Result<T, any Error>
        do { result = .success(try await operation()) } catch { result = .failure(error) }
        outcome.withLock { $0 = result }
        done.signal()
    }
    if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
        let executor = try ThreadExecutor.started(name: "manifest command", mayWait: false)
        Task(executorPreference: executor, priority: Task.currentPriority) {
            await work()
            executor.finish()
        }
    } else {
        Task.detached(priority: Task.currentPriority) { await work() }
    }
    done.wait()
    return try outcome.value!.get()
}
