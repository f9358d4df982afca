import Foundation

/// A thread of a run's own, which the run's task prefers over the concurrency pool, for work
/// that waits with a thread: a manifest's commands (synchronous bodies that wait for their
/// process, which swift-subprocess drives on the pool) and every call to a store that waits on
/// the network (``MigrationStore/waitsOnNetwork``). Waiting on a thread of the pool could take
/// the last one it has; here each run waits on a thread of its own, so that runs in one process
/// never wait for each other. Asynchronous bodies still await, and `@MainActor` ones still hop
/// to the main actor.
///
/// ```swift
/// let report = try await OwnThread.preferred { try await runner.run(store: store) }
/// ```
package enum OwnThread {
    /// The name of such a thread.
    package static let name = "migration run"

    /// Runs `operation` with a new thread as its task's preferred executor, where the platform
    /// has task executors (everywhere but macOS 14 and earlier, whose pool is never one thread).
    /// The thread ends when `operation` has returned and nothing is left for it to run.
    package nonisolated(nonsending) static func preferred<T>(_ operation: nonisolated(nonsending) () async throws -> T) async throws -> T {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            let executor = ThreadExecutor(name: name, mayWait: true)
            defer { executor.finish() }
            return try await withTaskExecutorPreference(executor) { try await operation() }
        }
        return try await operation()
    }

    /// Starts `operation` as a task of its own whose preferred executor is a new thread named
    /// `threadName`, where the platform has task executors: unlike `Task { }`, which starts on
    /// the concurrency pool (a preference is not inherited by an unstructured task), it needs no
    /// thread of the pool to start or to go on, so a pool that other work keeps busy does not
    /// hold it up. The thread ends with the task.
    ///
    /// ```swift
    /// let walk = OwnThread.task { try await runner.run(store: store) }
    /// let report = try await walk.value
    /// let ticks = OwnThread.task(named: "ticks") { while (try? await Task.sleep(for: .seconds(1))) != nil { tick() } }
    /// ```
    @discardableResult
    package static func task<T: Sendable>(named threadName: String = name, _ operation: sending @escaping () async throws -> T) -> Task<T, any Error> {
        if #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) {
            let executor = ThreadExecutor(name: threadName, mayWait: true)
            return Task(executorPreference: executor) {
                defer { executor.finish() }
                return try await operation()
            }
        }
        return Task { try await operation() }
    }

    /// Whether the current code may wait on the network: on such a thread, or, where the
    /// platform has no task executors, anywhere. Elsewhere it would make a thread of the
    /// concurrency pool (or one of the caller's) wait.
    package static var mayWait: Bool {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return true }
        return Thread.current.threadDictionary[marker] != nil
    }

    /// The key that marks such a thread in its thread dictionary.
    fileprivate static let marker = "MigrationCore.OwnThread"
}

/// A thread that runs the jobs given to it in order, for ``OwnThread`` (and for tests that wait
/// with a thread). It starts with its first job and ends once ``finish()`` was called and no
/// job is left; a job enqueued after that (by a task that inherited the preference) starts it
/// again.
///
/// ```swift
/// let executor = ThreadExecutor(name: "a test", mayWait: false)
/// defer { executor.finish() }
/// try await withTaskExecutorPreference(executor) { try await body() }
/// ```
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
package final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    private let name: String
    /// Whether the thread is one where ``OwnThread/mayWait`` holds.
    private let mayWait: Bool
    // Safe: `jobs`, `isFinished` and `hasThread` are only touched while `condition` is locked.
    private let condition = NSCondition()
    private var jobs: [UnownedJob] = []
    private var isFinished = false
    private var hasThread = false

    package init(name: String, mayWait: Bool) {
        self.name = name
        self.mayWait = mayWait
    }

    /// An executor whose thread is started now, so that a refusal is known before any job is
    /// given to it (``enqueue(_:)`` would otherwise fall back to the concurrency pool, which
    /// the caller may be avoiding).
    /// - Throws: ``DetachedThread/StartFailure`` when the system starts no thread.
    package static func started(name: String, mayWait: Bool) throws(DetachedThread.StartFailure) -> ThreadExecutor {
        let executor = ThreadExecutor(name: name, mayWait: mayWait)
        executor.hasThread = true
        do {
            try executor.startThread()
        } catch {
            executor.hasThread = false
            throw error
        }
        return executor
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let needsThread = condition.withLock {
            jobs.append(job)
            condition.signal()
            defer { hasThread = true }
            return !hasThread
        }
        guard needsThread else { return }
        do {
            try startThread()
        } catch {
            // No thread to be had: the jobs run on the concurrency pool instead of never.
            condition.withLock { hasThread = false }
            while let job = condition.withLock({ jobs.isEmpty ? nil : jobs.removeFirst() }) {
                globalConcurrentExecutor.enqueue(job)
            }
        }
    }

    private func startThread() throws(DetachedThread.StartFailure) {
        try DetachedThread.start(name: name) { [self] in
            if mayWait { Thread.current.threadDictionary[OwnThread.marker] = true }
            runJobs()
        }
    }

    /// Lets the thread end once it has run every job it was given.
    package func finish() {
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
