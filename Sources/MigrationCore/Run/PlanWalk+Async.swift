extension PlanWalk {
    /// The asynchronous walk: the same items, outcomes and stops as the synchronous one; it
    /// awaits each body, synchronous or not, and stops before a migration once `budgetSpent()`.
    mutating func walk(budgetSpent: () -> Bool, observer: @escaping @Sendable (RunEvent) -> Void) async {
        defer { reload() }
        if plan.isBaseline { return recordBaseline() }
        while let item = nextItem(budgetSpent: budgetSpent) {
            switch item {
            case .step(let subject):
                guard let once = exactlyOnce else {
                    wouldRun(subject)
                    continue
                }
                let walk = self
                let context = Locked<MigrationContext?>(nil)
                let outcome = await once.perform(subject.blockStep, title: subject.title, willRun: { observer(.started(subject)) }) { current in
                    let started = walk.context(for: subject, in: current) { observer(.progress(subject, $0)) }
                    context.withLock { $0 = started }
                    try await subject.work.run(started)
                }
                guard finish(subject, outcome, log: context.withLock { $0 }?.logLines ?? [], observer: observer) else { return }
            case .recordApp(let track):
                guard recordAppValue(on: track) else { return }
            }
        }
    }
}
