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
    /// How many interrupted attempts at one build hold a migration back
    /// (``MigrationRule/isHeldBack(interruptions:limit:)``).
    var interruptionLimit = MigrationRule.defaultInterruptionLimit
    /// Whether a migration held back by its interruptions runs all the same (`run --retry-interrupted`).
    var retryInterrupted = false

    /// What a due block starts with: the state it runs in, how many earlier attempts of it were
    /// interrupted at this build, and its own attempt as recorded (none for hooks, or a store
    /// that does not record attempts).
    struct Begun {
        let state: MigrationState
        let interruptedAttempts: Int
        let attempt: MigrationAttempt?
    }

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

        /// Whether the block ended without a record that took its attempt back: its record (of
        /// a success or a failure) could not be saved.
        var leftItsAttempt: Bool {
            switch self {
            case .unrecorded, .threw(_, _, .some): true
            default: false
            }
        }
    }

    /// - Parameters:
    ///   - willRun: called once the block is found due, just before its body.
    ///   - body: the block, given the state it runs in and its interrupted attempts.
    func perform(
        _ step: BlockStep, title: String, willRun: () -> Void = {}, body: (Begun) throws -> Void
    ) -> Outcome {
        if AsyncBlockExclusion.isHeld(step.lockKey, of: store) { return .notDue }
        var opened: MigrationAttempt?
        do {
            if try foundDoneAfterWaiting(step) { return .notDue }
            return try store.withExclusiveAccess(toBlock: step.lockKey) { alreadyRunning in
                guard let begun = try begin(step, title: title, alreadyRunning: alreadyRunning, willRun: willRun) else { return .notDue }
                opened = begun.attempt
                let outcome = try store.withBlockCommit { () throws -> Outcome in
                    // Decided again in the block's own commit: where nothing held the block
                    // across processes between the two (SQLite on Apple's systems), another
                    // process may have run it meanwhile.
                    // (A fresh install that needs its baseline: ``decide(_:)`` saw to it.)
                    guard try currentlyDue(step) ?? true else {
                        try close(begun.attempt)
                        return .notDue
                    }
                    let stopwatch = Stopwatch()
                    var failure: (any Error)?
                    do { try body(begun) } catch { failure = error }
                    return try record(step, title: title, failure: failure, duration: stopwatch.seconds, attempt: begun.attempt)
                }
                if outcome.leftItsAttempt { closeUnrecorded(begun.attempt) }
                opened = nil
                return outcome
            }
        } catch {
            closeUnrecorded(opened)
            return .refused(error)
        }
    }

    /// ``perform(_:title:willRun:body:)`` for an asynchronous body: the block's lock is held
    /// across its suspension points without a thread waiting (see ``AsyncBlockExclusion``).
    nonisolated(nonsending) func perform(
        _ step: BlockStep, title: String, willRun: () -> Void = {},
        body: nonisolated(nonsending) (Begun) async throws -> Void
    ) async -> Outcome {
        if !store.blockCommit.holdsBlockAcrossSuspension { return .refused(AsynchronousBodyError.inTransaction) }
        do {
            if try foundDoneAfterWaiting(step) { return .notDue }
            return try await AsyncBlockExclusion.withBlock(step.lockKey, of: store) { alreadyRunning in
                guard let begun = try begin(step, title: title, alreadyRunning: alreadyRunning, willRun: willRun) else { return .notDue }
                let stopwatch = Stopwatch()
                var failure: (any Error)?
                do { try await body(begun) } catch { failure = error }
                let outcome = try record(step, title: title, failure: failure, duration: stopwatch.seconds, attempt: begun.attempt)
                if outcome.leftItsAttempt { closeUnrecorded(begun.attempt) }
                return outcome
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
        return (try? currentlyDue(step)) == false
    }

    /// Whether `step` is due on the store's current records, by the rule ``decide(_:)`` keeps;
    /// `nil` when a read cannot tell (a fresh install that may need its baseline).
    /// - Throws: when the store cannot be read or a mark is unusable.
    private func currentlyDue(_ step: BlockStep) throws -> Bool? {
        let state = try step.needsHistory ? store.load() : store.loadMarks()
        guard !MigrationRule.mayNeedBaseline(marks: state, policy: policy) else { return nil }
        return try step.isDue(marks: RecordedMarks(state), history: state.history, app: app(of: step))
    }

    /// The app's value on `step`'s track: its version or its build.
    private func app(of step: BlockStep) -> Version? {
        step.track == .version ? app.version : app.build
    }

    /// Under the block's lock, before the body: what it starts with, after its attempt is
    /// recorded (committed on its own, before any block transaction) and `willRun`, when it is
    /// not already running in this thread or task and ``decide(_:)`` finds it due; `nil` when
    /// nothing is to run.
    private func begin(_ step: BlockStep, title: String, alreadyRunning: Bool, willRun: () -> Void) throws -> Begun? {
        guard !alreadyRunning, let begun = try store.withExclusiveAccess({ () throws -> Begun? in
            guard let decision = try decide(step) else { return nil }
            return Begun(state: decision.state, interruptedAttempts: decision.interruptions.count,
                         attempt: try openAttempt(step, title: title, after: decision.attempts))
        }) else { return nil }
        willRun()
        return begun
    }

    /// What ``decide(_:)`` found: the state the block runs in, the store's attempts when it
    /// records them, and the block's interrupted attempts that count.
    struct Decision {
        let state: MigrationState
        let attempts: [MigrationAttempt]?
        let interruptions: [MigrationAttempt]
    }

    /// The first phase, under the block's lock: what the block runs in when it is due, not
    /// held back, and its record can be written; `nil` when it is not due.
    /// - Throws: when the store cannot be read or written, or a mark is unusable;
    ///   ``HeldBack`` or ``InterruptedHoldBack`` when the block is held back.
    func decide(_ step: BlockStep) throws -> Decision? {
        let state = try currentState(full: step.needsHistory)
        let marks = RecordedMarks(state)
        guard try step.isDue(marks: marks, history: state.history, app: app(of: step)) else { return nil }
        if let failures, case .migration(let track, let version) = step,
           let failed = failures.holdingBack(version, on: track, lastMigrated: try marks.lastMigrated(track)) {
            throw HeldBack(step: step, failed: .migration(track, failed))
        }
        // Only a migration has attempts: a hook's decision reads no more than it did.
        let attempts = step.isMigration ? try (store as? any RecordsAttempts)?.loadAttempts() : nil
        let interruptions = try interruptions(of: step, among: attempts ?? [], state: state)
        try store.prepareToWrite()
        return Decision(state: state, attempts: attempts, interruptions: interruptions)
    }

    /// The interrupted attempts of `step` that count at this build, the history read only when
    /// it has attempts at all.
    /// - Throws: ``InterruptedHoldBack`` when they hold it back and this runner does not retry.
    private func interruptions(of step: BlockStep, among attempts: [MigrationAttempt], state: MigrationState) throws -> [MigrationAttempt] {
        guard case .migration(let track, let version) = step, attempts.contains(where: { $0.isOf(track, version) }),
              let target = try? target.get() else { return [] }
        var full = step.needsHistory ? state : try store.load()
        full.attempts = attempts
        let counted = MigrationRule.interruptions(of: version, on: track, in: full, at: target)
        if MigrationRule.isHeldBack(interruptions: counted.count, limit: interruptionLimit), !retryInterrupted {
            // The drop-in's later calls of the track wait behind it, as behind a failure: one
            // run above it would raise the mark past it for good.
            failures?.record(version, on: track, failed: true)
            throw InterruptedHoldBack(track: track, version: version, attempts: counted)
        }
        return counted
    }

    /// Records, durably, that `step` starts now; `nil` for a hook, or when the store does not
    /// record attempts (`attempts` is `nil`).
    private func openAttempt(_ step: BlockStep, title: String, after attempts: [MigrationAttempt]?) throws -> MigrationAttempt? {
        guard case .migration(let track, let version) = step, let attempts, let recorder = store as? any RecordsAttempts else { return nil }
        let attempt = MigrationAttempt(track: track, identifier: version.text, title: title,
                                       appVersion: app.version?.text, appBuild: app.build?.text, date: Date())
        try recorder.saveAttempts(Array((attempts + [attempt]).suffix(MigrationRule.attemptsKept)))
        return attempt
    }

    /// Takes back the attempt of a block that ended without a record of it: cancelled (in the
    /// block's own write), or its record could not be saved (its changes rolled back, or it
    /// runs again as if it never ran). Nothing interrupted it.
    private func close(_ attempt: MigrationAttempt?) throws {
        guard let attempt, let recorder = store as? any RecordsAttempts else { return }
        let attempts = try recorder.loadAttempts()
        if attempts.contains(where: { $0.matches(attempt) }) { try recorder.saveAttempts(attempts.filter { !$0.matches(attempt) }) }
    }

    /// ``close(_:)`` in a write of its own, after a block whose record was not saved; a store
    /// that cannot write it leaves the attempt counted as interrupted.
    private func closeUnrecorded(_ attempt: MigrationAttempt?) {
        guard attempt != nil else { return }
        _ = try? store.withExclusiveAccess { try close(attempt) }
    }

    /// The second phase, under the block's lock once the body is done: its record merged into
    /// the store's current records (none for a cancelled body).
    /// - Throws: the record's error, for a store whose transaction must then undo the block.
    func record(_ step: BlockStep, title: String, failure: (any Error)?, duration: Double, attempt: MigrationAttempt? = nil) throws -> Outcome {
        // The failure rule holds the blocks above this one back unless it ran and was recorded:
        // a body that threw or was cancelled, or whose record could not be saved, runs again.
        let outcome: Outcome
        do { outcome = try save(step, title: title, failure: failure, duration: duration, attempt: attempt) } catch {
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

    /// ``record(_:title:failure:duration:attempt:)`` without the failure rule's bookkeeping. The
    /// record takes the block's attempt back in the same write; so does a cancellation.
    private func save(_ step: BlockStep, title: String, failure: (any Error)?, duration: Double, attempt: MigrationAttempt?) throws -> Outcome {
        guard MigrationRule.isRecorded(failure: failure) else {
            try store.withExclusiveAccess { try close(attempt) }
            return .cancelled(duration: duration)
        }
        let app = app(of: step)
        do {
            let change = { (state: inout MigrationState) in
                MigrationRule.record(step, title: title, failure: failure, duration: duration, app: app, in: &state)
            }
            let saved = if let attempt, let recorder = store as? any RecordsAttempts {
                try recorder.recordStep(change, closing: attempt)
            } else {
                try store.recordStep(change)
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
