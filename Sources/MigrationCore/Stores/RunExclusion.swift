/// A store whose runs and resets are kept apart by a ``RunLock`` shared by every store object
/// on the same records (and, with a lock file, by every process).
package protocol KeepsRunsApart: MigrationStore {
    var runLock: RunLock { get }
    /// How the store waits for another process's runs or reset, and whom it tells; by
    /// default its ``MigrationStore/lockPatience``, telling nobody.
    var lockWaiting: LockWaiting.Policy { get }
}

extension KeepsRunsApart {
    package var lockWaiting: LockWaiting.Policy { LockWaiting.Policy(patience: lockPatience) }
}

extension InMemoryMigrationStore: KeepsRunsApart {
    package var runLock: RunLock { resource.runLock }
}

extension UserDefaultsMigrationStore: KeepsRunsApart {
    package var runLock: RunLock { resource.runLock }
}

extension FileMigrationStore: KeepsRunsApart {
    package var runLock: RunLock { file.resource.runLock }
    package var lockWaiting: LockWaiting.Policy { file.waiting }
}

extension PropertyListMigrationStore: KeepsRunsApart {
    package var runLock: RunLock { file.resource.runLock }
    package var lockWaiting: LockWaiting.Policy { file.waiting }
}

extension MigrationStore {
    /// Runs `body` once no registry run (``MigrationRunner``) on this store is going on, and
    /// keeps runs from starting until it returns: for a change that replaces the marks
    /// wholesale (a reset, or setting the device a store records), which must land before a run
    /// reads its plan or after its last step, never between two steps. Runs on the same store
    /// in this process are waited for, and with a file, preferences plist or SQLite store those
    /// of other processes too, as long as the store's ``lockPatience`` allows.
    /// ``Migrator/reset()`` goes through it.
    ///
    /// ```swift
    /// try store.withoutRuns(onWait: { print("waiting for the run on \(store.location) to finish…") }) {
    ///     try store.update { $0 = MigrationRule.reset($0) }
    /// }
    /// ```
    /// - Parameters:
    ///   - onWait: called once, before waiting, when a run is going on; throw from it to give
    ///     up instead of waiting.
    ///   - body: the change, made while no run goes on.
    ///
    /// A change writes, so a store that cannot be written (``checkWritable()``) is refused first,
    /// before any lock file is made.
    /// - Throws: what `onWait` or `body` throws, or ``MigrationStoreError`` when the store cannot
    ///   be written, when the lock cannot be taken, or when called from inside a run on the same
    ///   store, which it would wait for forever.
    @discardableResult
    public func withoutRuns<T>(onWait: () throws -> Void = {}, _ body: () throws -> T) throws -> T {
        try checkWritable()
        let (lock, waiting) = runExclusionLock
        return try lock.withoutRuns(of: location, waiting: waiting, onWait: onWait, body)
    }

    /// Runs `body` as a run of this store, which a reset or set waits for. The runner has read
    /// the store before (``MigrationRunner/reportIfNothingToDo(on:)``), so a store that cannot be
    /// read has failed before its run lock file is made, and is left as it was.
    ///
    /// The store's writability is checked once, here (``checkWritable()``), and `body` is given
    /// why it cannot be written, if it cannot. Such a store gets no run lock: its lock file
    /// could not be made, or would be left behind by a run that writes nothing. A run on it can
    /// only find nothing to do, or stop before any step, so no change can land inside it.
    func withRun<T>(_ body: (_ writeProblem: (any Error)?) throws -> T) throws -> T {
        if let problem = writeProblem { return try body(problem) }
        let (lock, waiting) = runExclusionLock
        return try lock.withRun(of: location, waiting: waiting) { try body(nil) }
    }

    /// ``withRun(_:)`` for an asynchronous run.
    nonisolated(nonsending) func withRun<T>(
        _ body: nonisolated(nonsending) (_ writeProblem: (any Error)?) async throws -> T
    ) async throws -> T {
        if let problem = writeProblem { return try await body(problem) }
        let (lock, waiting) = runExclusionLock
        return try await lock.withRun(of: location, waiting: waiting) { try await body(nil) }
    }

    /// Why this process may not write the store now; `nil` when it may.
    private var writeProblem: (any Error)? {
        do {
            try checkWritable()
            return nil
        } catch {
            return error
        }
    }

    /// What keeps this store's runs apart from its resets: its own; for a store of another
    /// package, the one its ``ExcludesRunsAcrossProcesses/runExclusion`` names, or else one per
    /// location, which keeps apart those of this process only; and how the store waits for it.
    private var runExclusionLock: (RunLock, LockWaiting.Policy) {
        if let own = self as? any KeepsRunsApart { return (own.runLock, own.lockWaiting) }
        let waiting = LockWaiting.Policy(patience: lockPatience)
        if let across = self as? any ExcludesRunsAcrossProcesses { return (RunLock.shared(across.runExclusion, location: location), waiting) }
        return (RunLock.shared(forLocation: location), waiting)
    }
}
