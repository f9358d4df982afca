import Foundation

/// The thread the explorer's runs share, which a run's walk prefers over the concurrency pool. A manifest's commands are
/// synchronous bodies that wait for their process, which swift-subprocess drives on the pool;
/// waiting on a thread of the pool could take the last one it has. Here they wait on a thread
/// of their own, while asynchronous bodies still await and `@MainActor` ones still hop to the
/// main actor.
///
/// ```swift
/// let report = try await RunThread.preferred { try await runner.run(store: store) }
/// ```
enum RunThread {
    /// Runs `operation` with this thread as its task's preferred executor, where the platform
    /// has task executors (everywhere but macOS 14 and earlier, whose pool is never one thread).
    static func preferred<T>(_ operation: () async throws -> T) async throws -> T {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            return try await withTaskExecutorPreference(ThreadExecutor.shared) { try await operation() }
        }
        return try await operation()
    }
}

/// One thread that runs the jobs given to it in order, for ``RunThread``.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
private final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = ThreadExecutor()

    // Safe: `jobs` is only touched while `condition` is locked.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []

    private init() {
        let thread = Thread { [self] in runJobs() }
        thread.name = "migration-explorer run"
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        condition.withLock {
            jobs.append(job)
            condition.signal()
        }
    }

    private func runJobs() {
        while true {
            let job: UnownedJob = condition.withLock {
                while jobs.isEmpty { condition.wait() }
                return jobs.removeFirst()
            }
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }
}
