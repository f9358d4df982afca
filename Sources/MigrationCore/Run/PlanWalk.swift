import Foundation

/// Walks a plan step by step: the one walk shared by runs and dry-runs, synchronous
/// (``walk(observer:)``) or asynchronous (``walk(budgetSpent:observer:)``), so that they cannot
/// disagree. The drivers only call bodies; what comes next, when to stop and what each outcome
/// means live here.
///
/// With a store each due body runs through ``ExactlyOnce``, which records it as soon as it
/// finishes; without one (a dry-run) each step is marked "would run" and nothing is recorded.
/// The walk stops at the first failure, at cancellation (the task awaiting it is cancelled, or
/// a body throws `CancellationError`) and, before a migration, when the budget is spent.
struct PlanWalk {
    /// What the walk does, in order: the pending migrations, then for each updated track its
    /// firing hooks and the new app version.
    enum Item {
        case step(RunStep.Subject)
        case recordApp(MigrationTrack)
    }

    let plan: MigrationPlan
    let store: (any MigrationStore)?
    private(set) var state: MigrationState
    private let items: [Item]
    private var next = 0
    private var steps: [RunStep] = []
    private var saveError: MigrationStoreError?
    private var deferred: [RegisteredMigration] = []
    private var heldBack: [RegisteredMigration] = []
    private var wasCancelled = false
    /// The tracks whose migration was held back by its interruptions: what is left of them
    /// waits behind it, the other track goes on.
    private var heldTracks: Set<MigrationTrack> = []

    /// When a migration's interruptions hold it back (see ``InterruptedHoldBack``).
    struct HoldBack {
        var limit = MigrationRule.defaultInterruptionLimit
        /// Run it all the same.
        var retry = false
    }

    private let holdBack: HoldBack

    init(plan: MigrationPlan, store: (any MigrationStore)?, holdBack: HoldBack = HoldBack()) {
        self.plan = plan
        self.store = store
        self.holdBack = holdBack
        self.state = plan.state
        var items = plan.pending.map { Item.step(.migration($0.migration)) }
        for track in plan.updatedTracks {
            items += plan.hooks.filter { $0.fires && $0.hook.track == track }.map { .step(.hook($0.hook)) }
            items.append(.recordApp(track))
        }
        self.items = plan.isBaseline ? [] : items
    }

    /// Refuses, before the first step, a walk that would write to a store it may not write
    /// (`writeProblem`, found by ``MigrationStore/withRun(_:)``): a store that cannot be written
    /// is an error before anything runs, not a failed step. A walk with nothing to do, or
    /// without a store (a dry-run), needs to write nothing.
    /// - Throws: `writeProblem`, saying what cannot be written and why.
    func refuseToWrite(despite writeProblem: (any Error)?) throws {
        guard let writeProblem, store != nil, plan.changesRecords else { return }
        throw writeProblem
    }

    var report: RunReport {
        var report = RunReport(mode: store == nil ? .dryRun : .run, plan: plan, steps: steps, state: state, saveError: saveError)
        report.deferred = deferred
        report.heldBack = heldBack
        report.wasCancelled = wasCancelled
        return report
    }

    /// What the walk does next: run a step, or record the app version of a track.
    enum Next {
        case run(RunStep.Subject, ExactlyOnce)
        case recordApp(MigrationTrack)
    }

    /// The synchronous walk. An asynchronous body does not run here: the step fails, saying so.
    mutating func walk(observer: @escaping (RunEvent) -> Void) {
        defer { reload() }
        if plan.isBaseline { return recordBaseline() }
        let progress = CallerThreadObserver(observer)
        while let next = nextToDo() {
            let goesOn = switch next {
            case .run(let subject, let once): runSynchronously(subject, once, observer: observer, onProgress: { progress.send($0) })
            case .recordApp(let track): recordAppValue(on: track)
            }
            guard goesOn else { return }
        }
    }

    /// What to do next, or `nil` once the walk is over (see ``nextItem(budgetSpent:)``). A
    /// dry-run marks each step "would run" on the way, and goes on as if it had.
    mutating func nextToDo(budgetSpent: () -> Bool = { false }) -> Next? {
        while let item = nextItem(budgetSpent: budgetSpent) {
            switch item {
            case .step(let subject):
                guard let once = exactlyOnce else {
                    if case .migration(let migration) = subject, !holdBack.retry,
                       let held = plan.interruptionHoldBack(of: migration, limit: holdBack.limit) {
                        _ = finish(subject, .refused(held), log: [], observer: { _ in })
                    } else {
                        wouldRun(subject)
                    }
                    continue
                }
                return .run(subject, once)
            case .recordApp(let track):
                return .recordApp(track)
            }
        }
        return nil
    }

    /// Runs a step on the calling thread; returns whether the walk goes on. An asynchronous
    /// body does not run: the step fails, saying so.
    mutating func runSynchronously(
        _ subject: RunStep.Subject, _ once: ExactlyOnce, observer: (RunEvent) -> Void, onProgress: @escaping @Sendable (RunEvent) -> Void
    ) -> Bool {
        var started: MigrationContext?
        let outcome: ExactlyOnce.Outcome
        if case .sync(let body) = subject.work {
            outcome = once.perform(subject.blockStep, title: subject.title, willRun: { observer(.started(subject)) }) { begun in
                let context = Self.context(for: subject, in: begun, startedIn: plan.state, target: plan.target) {
                    onProgress(.progress(subject, $0))
                }
                started = context
                try body(context)
            }
        } else {
            outcome = .refused(AsynchronousBodyError.inSynchronousRun)
        }
        return finish(subject, outcome, log: started?.logLines ?? [], observer: observer)
    }

    /// The next item, or `nil` once the walk is over: at the end, when the current task is
    /// cancelled, or before a migration once `budgetSpent()`; the migrations left are then
    /// deferred.
    mutating func nextItem(budgetSpent: () -> Bool = { false }) -> Item? {
        guard next < items.count else { return nil }
        if Task.isCancelled {
            stop(deferringFrom: next, cancelled: true)
            return nil
        }
        if case .step(.migration) = items[next], budgetSpent() {
            stop(deferringFrom: next, cancelled: false)
            return nil
        }
        next += 1
        let item = items[next - 1]
        if case .step(let subject) = item, heldTracks.contains(subject.track) {
            if case .migration(let migration) = subject { heldBack.append(migration) }
            return nextItem(budgetSpent: budgetSpent)
        }
        if case .recordApp(let track) = item, heldTracks.contains(track) { return nextItem(budgetSpent: budgetSpent) }
        return item
    }

    /// The step's exactly-once runner; `nil` in a dry-run.
    var exactlyOnce: ExactlyOnce? {
        store.map {
            ExactlyOnce(store: $0, target: .success(plan.target), app: (plan.target.version, plan.target.build), policy: plan.policy,
                        interruptionLimit: holdBack.limit, retryInterrupted: holdBack.retry)
        }
    }

    /// The context a body runs in, on a device in `current` that was in `started` when the
    /// upgrade began, upgrading to `target`. Static, so that a body's closure holds these values
    /// alone, not a copy of the walk: a copy would share the walk's list of steps, and the next
    /// step's append would then copy the whole list.
    static func context(
        for subject: RunStep.Subject, in begun: ExactlyOnce.Begun, startedIn started: MigrationState, target: AppTarget,
        onProgress: @escaping @Sendable (Double) -> Void
    ) -> MigrationContext {
        let current = begun.state
        let from = subject.isHook ? current.lastApp(subject.track) : current.lastMigrated(subject.track)
        return MigrationContext(from: from, upgradingFrom: started.lastApp(subject.track), to: target.value(on: subject.track)?.text ?? "",
                                interruptedAttempts: begun.interruptedAttempts, onProgress: onProgress)
    }

    /// A dry-run step: it would run, and the walk goes on as if it had.
    mutating func wouldRun(_ subject: RunStep.Subject) {
        MigrationRule.record(subject.blockStep, title: subject.title, failure: nil, duration: 0,
                             app: plan.target.value(on: subject.track), in: &state)
        steps.append(RunStep(subject: subject, outcome: .wouldRun, duration: 0, log: []))
    }

    /// Takes in how a step ended; returns whether the walk goes on.
    mutating func finish(_ subject: RunStep.Subject, _ outcome: ExactlyOnce.Outcome, log: [String], observer: (RunEvent) -> Void) -> Bool {
        let finished: RunStep
        switch outcome {
        case .notDue:
            return true
        case .ran(let duration, let saved):
            state = saved
            finished = RunStep(subject: subject, outcome: .succeeded, duration: duration, log: log)
        case .threw(let error, let duration, let recordError):
            saveError = recordError
            finished = RunStep(subject: subject, outcome: .failed(String(describing: error)), duration: duration, log: log)
        case .cancelled(let duration):
            stop(deferringFrom: next - 1, cancelled: true)
            finished = RunStep(subject: subject, outcome: .cancelled, duration: duration, log: log)
        case .unrecorded(let duration, let error):
            saveError = error
            finished = RunStep(subject: subject, outcome: .failed("ran, but could not be recorded: it will run again next launch: \(error)"),
                               duration: duration, log: log)
        case .refused(let held as InterruptedHoldBack):
            heldTracks.insert(held.track)
            finished = RunStep(subject: subject, outcome: .heldBack(held), duration: 0, log: [])
        case .refused(let error):
            saveError = error as? MigrationStoreError
            finished = RunStep(subject: subject, outcome: .failed("did not run: \(error)"), duration: 0, log: [])
        }
        steps.append(finished)
        observer(.finished(finished))
        if case .threw = outcome { heldBack = pendingMigrations(from: next) }
        if case .heldBack = finished.outcome { return true }
        return finished.outcome == .succeeded
    }

    /// Ends the walk early, leaving the migrations from item `index` on for the next run.
    private mutating func stop(deferringFrom index: Int, cancelled: Bool) {
        wasCancelled = cancelled
        deferred = pendingMigrations(from: index)
    }

    /// The migrations among the items from `index` on.
    private func pendingMigrations(from index: Int) -> [RegisteredMigration] {
        items[index...].compactMap { if case .step(.migration(let migration)) = $0 { migration } else { nil } }
    }

    /// Records the app version (or build) once every hook of its track has run, unless the
    /// store records it already: the other instances of a fleet that booted at once have.
    mutating func recordAppValue(on track: MigrationTrack) -> Bool {
        guard let app = plan.target.value(on: track) else { return true }
        if let store, (try? store.loadMarks())?[.lastApp(track)] == app.text { return true }
        return record { MigrationRule.recordUpdate(to: app, on: track, in: &$0) }
    }

    /// Fresh install, baseline policy: everything up to the target counts as applied.
    mutating func recordBaseline() {
        for entry in plan.entries where entry.status == .applied {
            steps.append(RunStep(subject: .migration(entry.migration), outcome: store == nil ? .wouldRun : .baselined, duration: 0, log: []))
        }
        let (policy, target) = (plan.policy, plan.target)
        record { $0 = MigrationRule.baselined($0, policy: policy, at: target) }
    }

    /// Applies `change` to the store's current records (to the walk's own state in a dry-run);
    /// returns whether it was saved.
    @discardableResult
    private mutating func record(_ change: (inout MigrationState) -> Void) -> Bool {
        guard let store else {
            change(&state)
            return true
        }
        do {
            state = try store.update(change)
            return true
        } catch {
            saveError = MigrationStoreError(error, location: store.location)
            return false
        }
    }

    /// The store's records as the walk leaves them.
    mutating func reload() {
        if let store, let current = try? store.load() { state = current }
    }
}

/// An asynchronous body where it cannot run.
enum AsynchronousBodyError: Error, CustomStringConvertible {
    /// A synchronous run cannot await it.
    case inSynchronousRun
    /// A store that commits a block with its record runs it inside its transaction, on the
    /// thread that holds it.
    case inTransaction

    var description: String {
        switch self {
        case .inSynchronousRun: "its body is async: run the registry with `try await runner.run(store:)`"
        case .inTransaction: "its body is async, and this store commits a block with its record in one transaction: give it a synchronous body"
        }
    }
}

/// A synchronous run's observer, handed to a body's context: progress reported on the run's
/// own thread reaches it at once; a report from any other thread is not passed on, since the
/// observer need not be thread-safe.
private struct CallerThreadObserver: @unchecked Sendable {
    // Safe: `observer` is only called on `thread`, the thread the run (and its observer) is on.
    private let observer: (RunEvent) -> Void
    private let thread = Thread.current

    init(_ observer: @escaping (RunEvent) -> Void) { self.observer = observer }

    func send(_ event: RunEvent) {
        if Thread.current === thread { observer(event) }
    }
}

extension RunStep.Subject {
    var work: MigrationWork {
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
