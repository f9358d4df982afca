import Foundation

/// Walks a plan step by step. With a store it runs each due body through ``ExactlyOnce``,
/// which records it as soon as it finishes; without one (a dry-run) it marks each step
/// "would run" and records nothing. Either way the walk stops at the first failure.
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

    /// The whole walk: a baseline, or the pending migrations in order, then for each updated
    /// track its hooks and the new app version.
    mutating func walk(observer: (RunEvent) -> Void) {
        defer { if let store, let current = try? store.load() { state = current } }
        if plan.isBaseline { return recordBaseline() }
        for entry in plan.pending {
            guard step(.migration(entry.migration), observer: observer) else { return }
        }
        for track in plan.updatedTracks {
            for hook in plan.hooks where hook.fires && hook.hook.track == track {
                guard step(.hook(hook.hook), observer: observer) else { return }
            }
            guard recordAppValue(on: track) else { return }
        }
    }

    /// Runs one migration or hook; returns whether the walk goes on.
    private mutating func step(_ subject: RunStep.Subject, observer: (RunEvent) -> Void) -> Bool {
        let app = plan.target.value(on: subject.track)
        guard let store else {
            MigrationRule.record(subject.blockStep, title: subject.title, failure: nil, duration: 0, app: app, in: &state)
            steps.append(RunStep(subject: subject, outcome: .wouldRun, duration: 0, log: []))
            return true
        }
        var context: MigrationContext?
        let once = ExactlyOnce(store: store, target: .success(plan.target), app: (plan.target.version, plan.target.build), policy: plan.policy)
        let outcome = once.perform(subject.blockStep, title: subject.title, willRun: { observer(.started(subject)) }) { current in
            let from = subject.isHook ? current.lastApp(subject.track) : current.lastMigrated(subject.track)
            let started = MigrationContext(from: from, to: app?.text ?? "")
            context = started
            try subject.body(started)
        }
        let finished: RunStep
        switch outcome {
        case .notDue:
            return true
        case .ran(let duration, let saved):
            state = saved
            finished = RunStep(subject: subject, outcome: .succeeded, duration: duration, log: context?.logLines ?? [])
        case .threw(let error, let duration, let recordError):
            saveError = recordError
            finished = RunStep(subject: subject, outcome: .failed(String(describing: error)), duration: duration, log: context?.logLines ?? [])
        case .unrecorded(let duration, let error):
            saveError = error
            finished = RunStep(subject: subject, outcome: .failed("ran, but could not be recorded: it will run again next launch: \(error)"),
                               duration: duration, log: context?.logLines ?? [])
        case .refused(let error):
            saveError = error as? MigrationStoreError
            finished = RunStep(subject: subject, outcome: .failed("did not run: \(error)"), duration: 0, log: [])
        }
        steps.append(finished)
        observer(.finished(finished))
        return finished.outcome == .succeeded
    }

    /// Records the app version (or build) once every hook of its track has run.
    private mutating func recordAppValue(on track: MigrationTrack) -> Bool {
        guard let app = plan.target.value(on: track) else { return true }
        guard let store else {
            MigrationRule.recordUpdate(to: app, on: track, in: &state)
            return true
        }
        do {
            state = try store.update { MigrationRule.recordUpdate(to: app, on: track, in: &$0) }
            return true
        } catch {
            saveError = MigrationStoreError(error, location: store.location)
            return false
        }
    }

    /// Fresh install, baseline policy: everything up to the target counts as applied.
    private mutating func recordBaseline() {
        for entry in plan.entries where entry.status == .applied {
            steps.append(RunStep(subject: .migration(entry.migration), outcome: store == nil ? .wouldRun : .baselined, duration: 0, log: []))
        }
        guard let store else {
            state = MigrationRule.baseline(state, at: plan.target)
            return
        }
        do {
            state = try store.update { current in
                if MigrationRule.isBaseline(current, policy: plan.policy) { current = MigrationRule.baseline(current, at: plan.target) }
            }
        } catch {
            saveError = MigrationStoreError(error, location: store.location)
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

    var track: MigrationTrack {
        switch self {
        case .migration(let migration): migration.track
        case .hook(let hook): hook.track
        }
    }

    var isHook: Bool {
        if case .hook = self { return true }
        return false
    }

    /// The exactly-once step it is: a migration by its version, a hook by its title.
    var blockStep: BlockStep {
        switch self {
        case .migration(let migration): .migration(migration.track, migration.version!)
        case .hook(let hook): .update(hook.track, hook: hook.title)
        }
    }
}
