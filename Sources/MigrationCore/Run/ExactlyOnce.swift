import Foundation

/// Runs one block at most once per device: the one path shared by the drop-in ``Migrator``
/// and registry runs, synchronous or asynchronous.
///
/// Under the block's own lock (see ``StoreResource`` and ``AsyncBlockExclusion``) it goes
/// through two phases around the body: ``decide(_:)`` reads the store's current marks, applies
/// the fresh-install policy, decides by ``MigrationRule`` whether the block is due and proves
/// the records can be written; ``record(_:title:failure:duration:)`` merges the body's record
/// into the current records. A body that throws is recorded as failed and stays due; one that
/// throws `CancellationError` is not recorded at all. The synchronous ``perform(_:title:willRun:body:)``
/// and the asynchronous one differ only in how they hold the lock and call the body. What the
/// store's ``BlockCommit`` changes is said in one place, ``BlockCommit``'s run rules.
struct ExactlyOnce {
    let store: any MigrationStore
    /// What a baseline records; an error when the app version is not usable.
    let target: Result<AppTarget, VersionError>
    /// The app's version and build; `nil` where it is not usable.
    let app: (version: Version?, build: Version?)
    let policy: FreshInstallPolicy
    /// The failures this process saw on the store, when ``decide(_:)`` holds back a migration
    /// above one that failed (``MigrationRule/isHeldBack(_:byFailureOf:)``): the drop-in, whose
    /// blocks come in the app's call order. A registry's walk keeps the rule by its order
    /// instead (ascending, stopping at the first failure).
    var failures: FailedBlocks? = nil

    enum Outcome {
        /// Not due (or already running in this thread or task): nothing ran.
        case notDue
        /// Ran and recorded.
        case ran(duration: Double, state: MigrationState)
        /// The body threw; its failure was recorded unless `recordError` says otherwise.
        case threw(any Error, duration: Double, recordError: MigrationStoreError?)
        /// The body threw `CancellationError`: nothing was recorded, it stays due.
        case cancelled(duration: Double)
        /// Ran, but the record could not be saved: it will run again.
        case unrecorded(duration: Double, MigrationStoreError)
        /// Nothing ran: the store could not be read, locked or written, or a mark is unusable.
        case refused(any Error)
    }

    /// - Parameters:
    ///   - willRun: called once the block is found due, just before its body.
    ///   - body: the block, given the state it runs in.
    func perform(
        _ step: BlockStep, title: String, willRun: () -> Void = {}, body: (MigrationState) throws -> Void
    ) -> Outcome {
        if AsyncBlockExclusion.isHeld(step.lockKey, of: store) { return .notDue }
        do {
            if try foundDoneAfterWaiting(step) { return .notDue }
            return try store.withExclusiveAccess(toBlock: step.lockKey) { alreadyRunning in
                guard let state = try begin(step, alreadyRunning: alreadyRunning, willRun: willRun) else { return .notDue }
                let stopwatch = Stopwatch()
                var failure: (any Error)?
                do { try body(state) } catch { failure = error }
                return try record(step, title: title, failure: failure, duration: stopwatch.seconds)
            }
        } catch {
            return .refused(error)
        }
    }

    /// ``perform(_:title:willRun:body:)`` for an asynchronous body: the block's lock is held
    /// across its suspension points without a thread waiting (see ``AsyncBlockExclusion``).
    nonisolated(nonsending) func perform(
        _ step: BlockStep, title: String, willRun: () -> Void = {},
        body: nonisolated(nonsending) (MigrationState) async throws -> Void
    ) async -> Outcome {
        if !store.blockCommit.holdsBlockAcrossSuspension { return .refused(AsynchronousBodyError.inTransaction) }
        do {
            if try foundDoneAfterWaiting(step) { return .notDue }
            return try await AsyncBlockExclusion.withBlock(step.lockKey, of: store) { alreadyRunning in
                guard let state = try begin(step, alreadyRunning: alreadyRunning, willRun: willRun) else { return .notDue }
                let stopwatch = Stopwatch()
                var failure: (any Error)?
                do { try await body(state) } catch { failure = error }
                return try record(step, title: title, failure: failure, duration: stopwatch.seconds)
            }
        } catch {
            return .refused(error)
        }
    }

    /// Whether, after waiting for another process that held the block
    /// (``MigrationStore/waitWhileAnotherHolds(block:)``), a fresh read shows it not due, by the
    /// same rule as ``decide(_:)``: then it is done without taking the lock. A read that cannot
    /// tell (a fresh install that may need its baseline, a mark that cannot be read) sends the
    /// block the full way, where ``decide(_:)`` decides under the lock.
    private func foundDoneAfterWaiting(_ step: BlockStep) throws -> Bool {
        guard try store.waitWhileAnotherHolds(block: step.lockKey) else { return false }
        guard let state = try? (step.needsHistory ? store.load() : store.loadMarks()),
              !MigrationRule.mayNeedBaseline(marks: state, policy: policy),
              let due = try? step.isDue(marks: RecordedMarks(state), history: state.history, app: app(of: step)) else { return false }
        return !due
    }

    /// The app's value on `step`'s track: its version or its build.
    private func app(of step: BlockStep) -> Version? {
        step.track == .version ? app.version : app.build
    }

    /// Under the block's lock, before the body: the state it runs in, after `willRun`, when it
    /// is not already running in this thread or task and ``decide(_:)`` finds it due; `nil`
    /// when nothing is to run.
    private func begin(_ step: BlockStep, alreadyRunning: Bool, willRun: () -> Void) throws -> MigrationState? {
        guard !alreadyRunning, let state = try decide(step) else { return nil }
        willRun()
        return state
    }

    /// The first phase, under the block's lock: the state the block runs in when it is due
    /// and its record can be written, `nil` when it is not due.
    /// - Throws: when the store cannot be read or written, or a mark is unusable.
    func decide(_ step: BlockStep) throws -> MigrationState? {
        let state = try currentState(full: step.needsHistory)
        let marks = RecordedMarks(state)
        guard try step.isDue(marks: marks, history: state.history, app: app(of: step)) else { return nil }
        if let failures, case .migration(let track, let version) = step,
           let failed = failures.holdingBack(version, on: track, lastMigrated: try marks.lastMigrated(track)) {
            throw HeldBack(step: step, failed: .migration(track, failed))
        }
        try store.prepareToWrite()
        return state
    }

    /// The second phase, under the block's lock once the body is done: its record merged into
    /// the store's current records (none for a cancelled body).
    /// - Throws: the record's error, for a store whose transaction must then undo the block.
    func record(_ step: BlockStep, title: String, failure: (any Error)?, duration: Double) throws -> Outcome {
        // The failure rule holds the blocks above this one back unless it ran and was recorded:
        // a body that threw or was cancelled, or whose record could not be saved, runs again.
        let outcome: Outcome
        do { outcome = try save(step, title: title, failure: failure, duration: duration) } catch {
            noteForFailureRule(step, succeeded: false)
            throw error
        }
        let succeeded = if case .ran = outcome { true } else { false }
        noteForFailureRule(step, succeeded: succeeded)
        return outcome
    }

    /// Tells ``failures`` (when this runner keeps the failure rule) how a migration ended.
    private func noteForFailureRule(_ step: BlockStep, succeeded: Bool) {
        guard let failures, case .migration(let track, let version) = step else { return }
        failures.record(version, on: track, failed: !succeeded)
    }

    /// ``record(_:title:failure:duration:)`` without the failure rule's bookkeeping.
    private func save(_ step: BlockStep, title: String, failure: (any Error)?, duration: Double) throws -> Outcome {
        guard MigrationRule.isRecorded(failure: failure) else { return .cancelled(duration: duration) }
        let app = app(of: step)
        do {
            let saved = try store.recordStep {
                MigrationRule.record(step, title: title, failure: failure, duration: duration, app: app, in: &$0)
            }
            if let failure { return .threw(failure, duration: duration, recordError: nil) }
            return .ran(duration: duration, state: saved)
        } catch {
            let recordError = MigrationStoreError(error, location: store.location)
            try store.blockCommit.keepBlock(despite: recordError)
            if let failure { return .threw(failure, duration: duration, recordError: recordError) }
            return .unrecorded(duration: duration, recordError)
        }
    }

    /// The store's current state (the marks, or everything when `full`), after applying the
    /// baseline policy to a fresh install.
    private func currentState(full: Bool) throws -> MigrationState {
        let marks = try store.loadMarks()
        guard full || MigrationRule.mayNeedBaseline(marks: marks, policy: policy) else { return marks }
        let state = try store.load()
        guard MigrationRule.isBaseline(state, policy: policy) else { return state }
        let target = try target.get()
        return try store.update { $0 = MigrationRule.baselined($0, policy: policy, at: target) }
    }
}

/// A migration that did not run because a lower one of its track failed and has not succeeded
/// since (see ``MigrationRule/isHeldBack(_:byFailureOf:)``).
struct HeldBack: Error, CustomStringConvertible {
    let step: BlockStep
    let failed: BlockStep

    var description: String {
        "held back: \(failed.callName) failed in this launch and has not succeeded since; this one runs after it succeeds (calling it again runs it; nothing above it is recorded, so next launch it runs first)"
    }
}

extension MigrationStoreError {
    /// `error` as a store error: itself, or an unwritable-store error that describes it.
    init(_ error: any Error, location: String) {
        self = error as? MigrationStoreError ?? MigrationStoreError(location: location, problem: .unwritable(String(describing: error)))
    }
}

/// Elapsed wall-clock time from its creation, on every platform the package supports.
struct Stopwatch {
    private let start = DispatchTime.now().uptimeNanoseconds

    var seconds: Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9 }
}
