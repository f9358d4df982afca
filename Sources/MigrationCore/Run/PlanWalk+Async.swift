extension PlanWalk {
    /// The asynchronous walk: the same items, outcomes and stops as the synchronous one; it
    /// awaits each body, synchronous or not, and stops before a migration once `budgetSpent()`.
    /// On a store that commits a block with its record, a synchronous body runs as in the
    /// synchronous walk, inside the store's transaction.
    nonisolated(nonsending) mutating func walk(budgetSpent: () -> Bool, observer: @escaping @Sendable (RunEvent) -> Void) async {
        defer { reload() }
        if plan.isBaseline { return await holdingStore("baseline") { $0.recordBaseline() } }
        while let next = nextToDo(budgetSpent: budgetSpent) {
            let goesOn = switch next {
            case .run(let subject, let once): await runAwaiting(subject, once, observer: observer)
            case .recordApp(let track): await holdingStore("update \(track)") { $0.recordAppValue(on: track) }
            }
            guard goesOn else { return }
        }
    }

    /// Runs a step, awaiting its body; returns whether the walk goes on. Where the store's
    /// block cannot be held across a suspension (``BlockCommit/holdsBlockAcrossSuspension``),
    /// a synchronous body runs as in the synchronous walk, inside the store's transaction, on
    /// this thread: its guarantee over its wait.
    private nonisolated(nonsending) mutating func runAwaiting(
        _ subject: RunStep.Subject, _ once: ExactlyOnce, observer: @escaping @Sendable (RunEvent) -> Void
    ) async -> Bool {
        if !once.store.blockCommit.holdsBlockAcrossSuspension, case .sync = subject.work {
            return runSynchronously(subject, once, observer: observer, onProgress: observer)
        }
        let (target, started) = (plan.target, plan.state)
        let context = Locked<MigrationContext?>(nil)
        let outcome = await once.perform(subject.blockStep, title: subject.title, willRun: { observer(.started(subject)) }) { begun in
            let running = Self.context(for: subject, in: begun, startedIn: started, target: target) { observer(.progress(subject, $0)) }
            context.withLock { $0 = running }
            try await subject.work.run(running)
        }
        return finish(subject, outcome, log: context.withLock { $0 }?.logLines ?? [], observer: observer)
    }

    /// Runs a record section while holding the store's exclusion on a thread of its own (see
    /// ``AsyncBlockExclusion``), so that a store held by another process (a file's `flock`)
    /// makes that thread wait, not this one. A dry-run holds nothing, and neither does a store
    /// whose exclusion is a transaction (``BlockCommit/holdsBlockAcrossSuspension``): the
    /// section's own write would wait for it, and that write is a transaction already.
    private mutating func holdingStore<T>(_ key: String, _ section: (inout PlanWalk) -> T) async -> T {
        guard let store, store.blockCommit.holdsBlockAcrossSuspension else { return section(&self) }
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
