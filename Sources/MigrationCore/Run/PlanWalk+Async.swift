extension PlanWalk {
    /// The asynchronous walk: the same items, outcomes and stops as the synchronous one; it
    /// awaits each body, synchronous or not, and stops before a migration once `budgetSpent()`.
    /// On a store that commits a block with its record, a synchronous body runs as in the
    /// synchronous walk, inside the store's transaction.
    nonisolated(nonsending) mutating func walk(budgetSpent: () -> Bool, observer: @escaping @Sendable (RunEvent) -> Void) async {
        defer { reload() }
        if plan.isBaseline { return await holdingStore("baseline") { $0.recordBaseline() } }
        while let item = nextItem(budgetSpent: budgetSpent) {
            switch item {
            case .step(let subject):
                guard let once = exactlyOnce else {
                    wouldRun(subject)
                    continue
                }
                if store?.commitsBlockWithRecord == true, case .sync = subject.work {
                    // Inside the store's transaction, on this thread: its guarantee over its wait.
                    guard runSynchronously(subject, once, observer: observer, onProgress: observer) else { return }
                    continue
                }
                let target = plan.target
                let context = Locked<MigrationContext?>(nil)
                let outcome = await once.perform(subject.blockStep, title: subject.title, willRun: { observer(.started(subject)) }) { current in
                    let started = Self.context(for: subject, in: current, target: target) { observer(.progress(subject, $0)) }
                    context.withLock { $0 = started }
                    try await subject.work.run(started)
                }
                guard finish(subject, outcome, log: context.withLock { $0 }?.logLines ?? [], observer: observer) else { return }
            case .recordApp(let track):
                guard await holdingStore("update \(track)", { $0.recordAppValue(on: track) }) else { return }
            }
        }
    }

    /// Runs a record section while holding the store's exclusion on a thread of its own (see
    /// ``AsyncBlockExclusion``), so that a store held by another process (a file's `flock`)
    /// makes that thread wait, not this one. A dry-run holds nothing, and neither does a store
    /// that commits a block with its record: its exclusion is a transaction on its one
    /// connection, which the section's own write would wait for, and that write is a
    /// transaction already.
    private mutating func holdingStore<T>(_ key: String, _ section: (inout PlanWalk) -> T) async -> T {
        guard let store, !store.commitsBlockWithRecord else { return section(&self) }
        var walk = self
        let result: T
        do {
            result = try await AsyncBlockExclusion.withBlock("record " + key, of: store) { _ in section(&walk) }
        } catch {
            result = section(&walk)
        }
        self = walk
        return result
    }
}
