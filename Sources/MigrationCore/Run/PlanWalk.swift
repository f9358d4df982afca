import Foundation

/// Walks a plan step by step: runs each body (or, without a store, marks it "would run"),
/// records the outcome in the state and saves it after every step.
struct PlanWalk {
    let plan: MigrationPlan
    let store: (any MigrationStore)?
    private(set) var state: MigrationState
    private var steps: [RunStep] = []
    private var saveError: MigrationStoreError?

    init(plan: MigrationPlan, store: (any MigrationStore)?) {
        self.plan = plan
        self.store = store
        self.state = plan.state
    }

    var report: RunReport {
        RunReport(mode: store == nil ? .dryRun : .run, plan: plan, steps: steps, state: state, saveError: saveError)
    }

    /// Runs one migration or hook; returns whether the walk goes on.
    mutating func step(
        _ subject: RunStep.Subject, track: MigrationTrack, observer: (RunEvent) -> Void,
        onSuccess: (inout MigrationState) -> Void
    ) -> Bool {
        guard store != nil else {
            onSuccess(&state)
            steps.append(RunStep(subject: subject, result: .wouldRun, duration: 0, log: []))
            return true
        }
        observer(.started(subject))
        let from = if case .hook = subject { state.lastApp(track) } else { state.lastMigrated(track) }
        let context = MigrationContext(from: from, to: plan.target.value(on: track)?.text ?? "")
        let started = ContinuousClock.now
        var failure: String?
        do { try subject.body(context) } catch { failure = String(describing: error) }
        let duration = (ContinuousClock.now - started).seconds
        var next = state
        if failure == nil { onSuccess(&next) }
        next.history.append(MigrationRecord(
            subject: subject.recordSubject, identifier: subject.identifier, title: subject.title, date: Date(),
            duration: duration, outcome: failure == nil ? .succeeded : .failed, error: failure
        ))
        if let saveFailure = save(next) {
            failure = failure ?? "ran, but could not be recorded: \(saveFailure)"
        } else {
            state = next
        }
        let step = RunStep(subject: subject, result: failure.map { .failed($0) } ?? .succeeded,
                           duration: duration, log: context.logLines)
        steps.append(step)
        observer(.finished(step))
        return failure == nil
    }

    /// Applies a change that is not a step (the recorded app version) and saves it.
    mutating func commit(_ change: (inout MigrationState) -> Void) {
        var next = state
        change(&next)
        if save(next) == nil { state = next }
    }

    /// Fresh install, baseline policy: everything up to the target is recorded as applied.
    mutating func recordBaseline() {
        var next = MigrationState.baseline(at: plan.target)
        next.history = state.history
        let date = Date()
        for entry in plan.entries where entry.status == .applied {
            let migration = entry.migration
            next.history.append(MigrationRecord(
                subject: migration.track.recordSubject, identifier: migration.declared, title: migration.title,
                date: date, duration: 0, outcome: .baselined
            ))
            steps.append(RunStep(subject: .migration(migration), result: store == nil ? .wouldRun : .baselined, duration: 0, log: []))
        }
        if save(next) == nil { state = next }
    }

    /// Saves through the store (a dry-run saves nothing); returns the error if saving failed.
    private mutating func save(_ next: MigrationState) -> MigrationStoreError? {
        guard let store else { return nil }
        do {
            try store.save(next)
            return nil
        } catch {
            let failure = error as? MigrationStoreError
                ?? MigrationStoreError(location: store.location, problem: .unwritable(String(describing: error)))
            saveError = failure
            return failure
        }
    }
}

extension RunStep.Subject {
    var body: MigrationBody {
        switch self {
        case .migration(let migration): migration.body
        case .hook(let hook): hook.body
        }
    }

    var identifier: String? {
        switch self {
        case .migration(let migration): migration.declared
        case .hook: nil
        }
    }

    var recordSubject: MigrationRecord.Subject {
        switch self {
        case .migration(let migration): migration.track.recordSubject
        case .hook(let hook): hook.track.hookSubject
        }
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
