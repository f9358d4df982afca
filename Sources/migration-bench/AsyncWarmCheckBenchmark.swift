import MigrationCore

/// The asynchronous `migrateToVersion` with nothing to do, 1,000 declared, per call, beside the
/// synchronous call measured in the same rounds: awaited off the main actor, and on it (where
/// an app's launch code runs).
enum AsyncWarmCheckBenchmark {
    static func run(_ table: Table) async throws {
        let declared = versions(1_000)
        let appVersion = declared.last!
        let migrator = Migrator(appVersion: appVersion, store: InMemoryMigrationStore(state: .device(at: try Version(appVersion))))
        let repeats = 20
        var times: [[Double]] = [[], [], []]
        for _ in 0..<9 {
            times[0].append(seconds(ContinuousClock().measure { precondition(synchronous(migrator, declared, repeats) == 0) }))
            times[1].append(try await measure {
                let ran = await offTheMainActor(migrator, declared, repeats)
                precondition(ran == 0)
            })
            times[2].append(try await measure {
                let ran = await onTheMainActor(migrator, declared, repeats)
                precondition(ran == 0)
            })
        }
        let perCall = times.map { $0.sorted()[$0.count / 2] / Double(repeats * declared.count) }
        let sync = "the synchronous call \(formatted(perCall[0]))"
        print("\nAsync warm check, nothing to do, 1,000 declared, per call")
        table.add(Row(figure: "async warm check, awaited off the main actor: \(formatted(perCall[1]))", baseline: sync,
                      ratio: perCall[1] / perCall[0], target: "reported", met: nil))
        table.add(Row(figure: "async warm check, awaited on the main actor: \(formatted(perCall[2]))", baseline: sync,
                      ratio: perCall[2] / perCall[0], target: "reported", met: nil))
    }

    private static func measure(_ body: () async throws -> Void) async throws -> Double {
        let clock = ContinuousClock()
        let start = clock.now
        try await body()
        return seconds(clock.now - start)
    }

    /// How many blocks ran: none, since nothing is due.
    private static func synchronous(_ migrator: Migrator, _ declared: [String], _ repeats: Int) -> Int {
        var ran = 0
        for _ in 0..<repeats { for version in declared { migrator.migrateToVersion(version) { ran += 1 } } }
        return ran
    }

    private static func offTheMainActor(_ migrator: Migrator, _ declared: [String], _ repeats: Int) async -> Int {
        var ran = 0
        for _ in 0..<repeats { for version in declared { await migrator.migrateToVersion(version) { () async in ran += 1 } } }
        return ran
    }

    @MainActor
    private static func onTheMainActor(_ migrator: Migrator, _ declared: [String], _ repeats: Int) async -> Int {
        var ran = 0
        for _ in 0..<repeats { for version in declared { await migrator.migrateToVersion(version) { () async in ran += 1 } } }
        return ran
    }
}
