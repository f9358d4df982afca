import MigrationCore

/// What the store answered to an ``Effect``, as the loop feeds it back (``Event/store(_:)``):
/// the explorer after it, what the store now allows, and what the screen shows of it.
///
/// ```swift
/// let answer = await StoreWork.perform(.dryRun, on: session.explorer)
/// _ = session.handle(.store(answer), size: size)   // the dry-run's report shows
/// ```
package struct StoreAnswer: Sendable {
    /// The effect answered.
    package let effect: Effect
    /// The explorer as the effect left it (a new "from", a reset sandbox).
    package var explorer: Explorer
    package var facts: StoreFacts
    /// The plan read after the effect; `nil` when it stays as shown (a dry-run, the matrix, a
    /// change that failed).
    package var plan: Result<MigrationPlan, RunFailure>?
    /// Whether the last run's report no longer applies (the store changed under it).
    package var forgetsLastReport = false
    package var overlay: ViewState.Overlay?
    package var message: ViewState.Message?

    init(effect: Effect, explorer: Explorer) {
        self.effect = effect
        self.explorer = explorer
        facts = StoreFacts(label: explorer.storeLabel, isSandbox: explorer.isSandbox, target: explorer.target)
    }
}

/// Which store the session plays and what it allows, as read from it: the device it records,
/// whether it can be written. Read off the loop, after every effect and run.
package struct StoreFacts: Sendable {
    var label: StoreLabel
    var isSandbox: Bool
    var target: AppTarget
    var realStorePath: String?
    var writableDevice: String?
    var sandboxDevice: String?
    /// Why the real store cannot be written (``ViewState/unwritableRealStore``).
    var unwritableRealStore: String?

    init(label: StoreLabel, isSandbox: Bool, target: AppTarget) {
        (self.label, self.isSandbox, self.target) = (label, isSandbox, target)
    }

    /// Reads them from `explorer`'s store: it may wait for it (a database's round trips).
    init(reading explorer: Explorer) {
        self.init(label: explorer.storeLabel, isSandbox: explorer.isSandbox, target: explorer.target)
        realStorePath = explorer.realStore?.displayPath
        writableDevice = explorer.writableDevice
        sandboxDevice = explorer.isSandbox ? explorer.deviceDescription : nil
        unwritableRealStore = explorer.realStoreWriteProblem().map { "\($0.location): cannot be written (\($0.reason))" }
    }
}

extension ViewState {
    /// Shows which store the session plays and what it allows.
    mutating func show(_ facts: StoreFacts) {
        storeLabel = facts.label
        isSandbox = facts.isSandbox
        target = facts.target
        realStorePath = facts.realStorePath
        writableDevice = facts.writableDevice
        sandboxDevice = facts.sandboxDevice
        unwritableRealStore = facts.unwritableRealStore
        unwritableStore = facts.isSandbox ? nil : facts.unwritableRealStore
    }
}

extension Update {
    /// What the store's answer changes on screen: its plan, overlay and message (what another
    /// process changed, cut to `width`, after a ``Effect/follow(writer:)``); once the store has first answered, the selection goes to the first migration that will run.
    static func apply(_ answer: StoreAnswer, _ state: inout ViewState, width: Int) {
        let shown = state.plan
        state.awaitedStore = nil
        state.show(answer.facts)
        if answer.forgetsLastReport { state.lastReport = nil }
        switch answer.plan {
        case .success(let plan)?: state.show(plan)
        case .failure(let error)?: state.showPlanError(error.description)
        case nil: break
        }
        if let overlay = answer.overlay { state.overlay = overlay }
        if let message = answer.message { state.message = message }
        if case .follow(let writer) = answer.effect { tellChange(since: shown, writer: writer, &state, width: width) }
        guard answer.effect == .read else {
            if let planError = state.planError { state.message = .init(text: "No plan: \(planError)", role: .failed) }
            return
        }
        if state.filter.isEmpty, let first = state.items.firstIndex(where: { if case .migration(let entry) = $0 { entry.status.willRun } else { false } }) {
            state.selection = first
        }
    }
}
