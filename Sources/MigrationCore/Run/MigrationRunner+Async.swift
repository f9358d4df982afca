extension MigrationRunner {
    /// Runs the pending migrations and firing hooks, awaiting each body in plan order:
    /// asynchronous bodies and synchronous ones alike, under the same rules and with the same
    /// records as the synchronous `run(store:observer:)`.
    ///
    /// A `@MainActor` body runs on the main actor; the rest of the run does not. Cancelling the
    /// task that awaits the run stops it before the next migration (a body sees
    /// `Task.isCancelled`; one that throws `CancellationError` is not recorded): then
    /// ``RunReport/wasCancelled`` is true and every earlier success stays recorded.
    ///
    /// ```swift
    /// let report = try await runner.run(store: store) { event in
    ///     if case .progress(let subject, let fraction) = event { print(subject.title, fraction) }
    /// }
    /// ```
    /// - Throws: ``MigrationStoreError`` or ``MigrationStateError`` when the store cannot be
    ///   read, or when there is something to run and the store cannot be written: then
    ///   nothing ran.
    public func run(store: any MigrationStore, observer: @escaping @Sendable (RunEvent) -> Void = { _ in }) async throws -> RunReport {
        try await walk(store: store, budgetSpent: { false }, observer: observer)
    }

    /// Runs pending migrations while the time spent is under `budget`, for a launch that must
    /// not take long. A running body is never interrupted; once the budget is spent the run
    /// stops before the next migration, records nothing for the rest and lists them in
    /// ``RunReport/deferred``: the next run continues there. Update hooks wait until every
    /// migration is done, so "What's New" shows once, after everything.
    ///
    /// ```swift
    /// let report = try await runner.run(store: store, budget: .seconds(2))
    /// if !report.deferred.isEmpty { scheduleBackgroundRun() }
    /// ```
    /// - Parameters:
    ///   - store: where the records are read and written.
    ///   - budget: the time the run may spend before it starts no further migration.
    ///   - clock: measures the time spent; tests pass a clock they advance themselves.
    ///   - observer: told of every step as it starts, reports progress and finishes.
    @available(iOS 16, macOS 13, tvOS 16, watchOS 9, *)
    public func run<C: Clock>(
        store: any MigrationStore, budget: Duration, clock: C = ContinuousClock(),
        observer: @escaping @Sendable (RunEvent) -> Void = { _ in }
    ) async throws -> RunReport where C.Duration == Duration {
        let start = clock.now
        return try await walk(store: store, budgetSpent: { start.duration(to: clock.now) >= budget }, observer: observer)
    }

    /// The asynchronous walk through the plan for the device recorded in `store`, which a
    /// reset or set of the store waits for, as in the synchronous run. On a store that waits on
    /// the network, the whole walk prefers a thread of its own (``OwnThread``), so that no
    /// thread of the concurrency pool waits for the server.
    nonisolated(nonsending) private func walk(
        store: any MigrationStore, budgetSpent: () -> Bool, observer: @escaping @Sendable (RunEvent) -> Void
    ) async throws -> RunReport {
        guard store.waitsOnNetwork, !OwnThread.mayWait else {
            return try await walkHere(store: store, budgetSpent: budgetSpent, observer: observer)
        }
        return try await OwnThread.preferred { try await walkHere(store: store, budgetSpent: budgetSpent, observer: observer) }
    }

    /// ``walk(store:budgetSpent:observer:)`` on the current executor.
    nonisolated(nonsending) private func walkHere(
        store: any MigrationStore, budgetSpent: () -> Bool, observer: @escaping @Sendable (RunEvent) -> Void
    ) async throws -> RunReport {
        if let unchanged = try reportIfNothingToDo(on: store) { return unchanged }
        return try await store.withRun { writeProblem in
            var walk = PlanWalk(plan: try plan(store.load()), store: store, holdBack: holdBack)
            try walk.refuseToWrite(despite: writeProblem)
            await walk.walk(budgetSpent: budgetSpent, observer: observer)
            return walk.report
        }
    }
}
