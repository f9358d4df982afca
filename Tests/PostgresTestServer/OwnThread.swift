import Foundation

/// Runs `operation` in a task whose jobs run on a new thread of its own, which ends with it: a
/// run on a PostgreSQL store waits for the server on its task's thread, and many such runs at
/// once (instances of a fleet, racing tests) must not take every thread of the concurrency pool.
///
/// ```swift
/// let report = try await onThreadOfItsOwn { try await runner.run(store: store) }
/// ```
public func onThreadOfItsOwn<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
    let executor = OwnThreadExecutor()
    defer { executor.stop() }
    return try await Task(executorPreference: executor) { try await operation() }.value
}

/// A task executor with one thread, which ends with ``stop()``.
private final class OwnThreadExecutor: TaskExecutor, @unchecked Sendable {
    // Safe: `jobs` and `stopped` are only touched while `condition` is locked.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var stopped = false

    init() {
        Thread.detachNewThread { [self] in runJobs() }
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.withLock {
            jobs.append(job)
            condition.signal()
        }
    }

    func stop() {
        condition.withLock {
            stopped = true
            condition.signal()
        }
    }

    private func runJobs() {
        while true {
            let next: UnownedJob? = condition.withLock {
                while jobs.isEmpty && !stopped { condition.wait() }
                return jobs.isEmpty ? nil : jobs.removeFirst()
            }
            guard let next else { return }
            next.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
