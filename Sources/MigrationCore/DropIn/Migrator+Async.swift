extension Migrator {
    /// Runs the asynchronous `block` once, when the app reaches `version`: the same rules and
    /// records as the synchronous call. The block runs in the caller's isolation (on the main
    /// actor when called from there); concurrent callers of the same block, in any task, thread
    /// or (with a ``FileMigrationStore``) process, wait without holding a thread, then find it
    /// recorded.
    ///
    /// ```swift
    /// try await migrator.migrateToVersion("1.1") { try await importer.run() }
    /// ```
    nonisolated(nonsending) public func migrateToVersion<E: Error>(
        _ version: String, _ block: nonisolated(nonsending) () async throws(E) -> Void
    ) async throws(E) {
        if surelySkips(version, on: .version) { return }
        guard let step = dueMigration(version, on: .version) else { return }
        try await runOnce(step, block)
    }

    /// Runs the asynchronous `block` once, when the app reaches build `build`.
    ///
    /// ```swift
    /// try await migrator.migrateToBuild("120") { try await cache.rebuild() }
    /// ```
    nonisolated(nonsending) public func migrateToBuild<E: Error>(
        _ build: String, _ block: nonisolated(nonsending) () async throws(E) -> Void
    ) async throws(E) {
        if surelySkips(build, on: .build) { return }
        guard let step = dueMigration(build, on: .build) else { return }
        try await runOnce(step, block)
    }

    /// Runs the asynchronous `block` when the app version differs from the one recorded, a
    /// first launch included; then records the current version.
    ///
    /// ```swift
    /// await migrator.applicationUpdateBlock { await whatsNew.prepare() }
    /// ```
    nonisolated(nonsending) public func applicationUpdateBlock<E: Error>(
        _ block: nonisolated(nonsending) () async throws(E) -> Void
    ) async throws(E) {
        guard let step = dueUpdate(on: .version) else { return }
        try await runOnce(step, block)
    }

    /// Runs the asynchronous `block` when the app build differs from the one recorded, a first
    /// launch included; then records the current build.
    ///
    /// ```swift
    /// await migrator.buildNumberUpdateBlock { await analytics.flush() }
    /// ```
    nonisolated(nonsending) public func buildNumberUpdateBlock<E: Error>(
        _ block: nonisolated(nonsending) () async throws(E) -> Void
    ) async throws(E) {
        guard let step = dueUpdate(on: .build) else { return }
        try await runOnce(step, block)
    }

    /// The synchronous calls' exactly-once path, awaiting the block.
    nonisolated(nonsending) private func runOnce<E: Error>(
        _ step: BlockStep, _ block: nonisolated(nonsending) () async throws(E) -> Void
    ) async throws(E) {
        var blockError: E?
        let outcome = await exactlyOnce.perform(step, title: step.callName) { _ in
            do throws(E) { try await block() } catch {
                blockError = error
                throw error
            }
        }
        try conclude(outcome, of: step, blockError)
    }
}
