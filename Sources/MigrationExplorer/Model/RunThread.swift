import Foundation

/// A thread of the run's own, which a run's walk prefers over the concurrency pool. A
/// manifest's commands are synchronous bodies that wait for their process, which
/// swift-subprocess drives on the pool; waiting on a thread of the pool could take the last one
/// it has. Here they wait on a thread of their own, one per run, so that two runs in one process
/// never wait for each other; asynchronous bodies still await and `@MainActor` ones still hop to
/// the main actor.
///
/// ```swift
/// let report = try await RunThread.preferred { try await runner.run(store: store) }
/// ```
enum RunThread {
    /// Runs `operation` with a new thread as its task's preferred executor, where the platform
    /// has task executors (everywhere but macOS 14 and earlier, whose pool is never one thread).
    /// The thread ends when `operation` has returned and nothing is left for it to run.
    static func preferred<T>(_ operation: () async throws -> T) async throws -> T {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            let executor = ThreadExecutor()
            defer { executor.finish() }
            return try await withTaskExecutorPreference(executor) { try await operation() }
        }
        return try await operation()
    }
}

/// A thread that runs the jobs given to it in order, for ``RunThread``. It starts with its
/// first job and ends once ``finish()`` was called and no job is left; a job enqueued after
/// that (by a task that inherited the preference) starts it again.
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
private final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    // Safe: `jobs`, `isFinished` and `hasThread` are only touched while `condition` is locked.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var isFinished = false
    private var hasThread = false

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let needsThread = condition.withLock {
            jobs.append(job)
            condition.signal()
            defer { hasThread = true }
            return !hasThread
        }
        if needsThread {
            let thread = Thread { [self] in runJobs() }
            thread.name = "migration-explorer run"
            thread.start()
        }
    }

    /// Lets the thread end once it has run every job it was given.
    func finish() {
        condition.withLock {
            isFinished = true
            condition.signal()
        }
    }

    private func runJobs() {
        while let job = nextJob() {
            job.runSynchronously(on: asUnownedTaskExecutor())
        }
    }

    /// The next job, waiting for one; `nil` when finished and none is left, and then the thread ends.
    private func nextJob() -> UnownedJob? {
        condition.withLock {
            while jobs.isEmpty && !isFinished { condition.wait() }
            guard !jobs.isEmpty else {
                hasThread = false
                return nil
            }
            return jobs.removeFirst()
        }
    }
}
