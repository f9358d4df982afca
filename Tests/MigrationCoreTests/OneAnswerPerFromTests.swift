import Foundation
import Testing
@testable import MigrationCore
import MigrationTestSupport

/// "A device that last ran release R" means one thing everywhere: the matrix's row, a plan
/// from R in a sandbox, a plan from R over any recorded store, and a plan over a store set to R.
@Suite("One answer per from")
struct OneAnswerPerFromTests {
    /// What a plan says, for comparing: every status, the run order, the hooks and the problems.
    struct Answer: Equatable {
        let statuses: [MigrationStatus]
        let runs: [String]
        let hooks: [Bool]
        let problems: [String]

        init(_ plan: MigrationPlan) {
            statuses = plan.entries.map(\.status)
            runs = plan.pending.map(\.migration.declared)
            hooks = plan.hooks.map(\.fires)
            problems = plan.problems.map(\.message)
        }
    }

    @Test("matrix row, plan --from, plan --from over a store and set agree")
    func everyFromAgrees() throws {
        var outOfOrder = 0
        for seed in 0..<300 { outOfOrder += try agree(seed: seed) }
        // The random registries do reach the case that matters.
        #expect(outOfOrder >= 20)
    }

    /// Checks every release of one random registry; returns how many had an out-of-order migration.
    func agree(seed: Int) throws -> Int {
        var outOfOrder = 0
        var random = SplitMix(state: UInt64(seed) &* 104_729 &+ 17)
        let releaseTexts = Set((0..<Int.random(in: 1...6, using: &random)).map { _ in random.version() })
        var registry = MigrationRegistry()
        registry.releases = try releaseTexts.map { try Version($0) }
        for _ in 0..<Int.random(in: 0...15, using: &random) {
            let since = Bool.random(using: &random) ? releaseTexts.randomElement(using: &random) : nil
            let version = random.version()
            registry.migrate(toVersion: version, title: version, since: since)
        }
        if Bool.random(using: &random) { registry.onUpdate(title: "hook") }
        let target = try AppTarget(version: random.version())
        let matrix = try UpgradeMatrix(registry: registry, target: target)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("one-answer-\(seed)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        for release in Set(registry.releases).sorted() {
            let sandbox = Answer(try MigrationPlan(registry: registry, state: registry.device(lastRan: release).state, target: target))
            if sandbox.statuses.contains(.skipped(.outOfOrder)) { outOfOrder += 1 }
            if let row = matrix.rows.first(where: { $0.from == release }) {
                #expect(Answer(row.plan) == sandbox, "seed \(seed), from \(release.text): the matrix row")
            }
            let prior = Self.recorded(registry, &random)
            let over = registry.device(lastRan: release, over: prior)
            #expect(Answer(try MigrationPlan(registry: registry, state: over, target: target)) == sandbox,
                    "seed \(seed), from \(release.text) over \(prior)")
            // `set`: written to a real store, read back, planned.
            let store = PropertyListMigrationStore(url: folder.appendingPathComponent("\(release.text).plist"))
            try store.save(prior)
            try store.update { $0 = registry.device(lastRan: release, over: $0) }
            #expect(Answer(try MigrationPlan(registry: registry, state: try store.load(), target: target)) == sandbox,
                    "seed \(seed), set to \(release.text) over \(prior)")
        }
        return outOfOrder
    }

    /// Arbitrary prior records: random marks, a random history of successes and failures,
    /// complete or not.
    static func recorded(_ registry: MigrationRegistry, _ random: inout SplitMix) -> MigrationState {
        func mark() -> String? { Bool.random(using: &random) ? random.version() : nil }
        var state = MigrationState(lastMigratedVersion: mark(), lastAppVersion: mark(), historyIsComplete: Bool.random(using: &random))
        for _ in 0..<Int.random(in: 0...6, using: &random) {
            let version = registry.migrations.randomElement(using: &random)?.declared ?? random.version()
            state.history.append(MigrationRecord(
                subject: .versionMigration, identifier: version, title: version, date: Date(timeIntervalSince1970: 0), duration: 0,
                outcome: Bool.random(using: &random) ? .succeeded : .failed))
        }
        return state
    }

    /// The notes example (releases 0.8, 0.9, 0.10; 0.9 shipped in 1.0).
    @Test func aStoreSetToAReleaseIsJudgedByTheReplay() throws {
        var registry = MigrationRegistry(appName: "Notes")
        registry.releases = try ["0.8", "0.9", "0.10"].map { try Version($0) }
        registry.migrate(toVersion: "0.9", title: "GUIDs", since: "1.0")
        registry.migrate(toVersion: "0.10", title: "Dates")
        registry.migrate(toVersion: "1.0", title: "Tags")
        let target = try AppTarget(version: "1.0")
        let upgraded = MigrationState(lastMigratedVersion: "1.0", lastAppVersion: "1.0", historyIsComplete: true)
        let at0_10 = registry.device(lastRan: try Version("0.10"), over: upgraded)
        let plan = try MigrationPlan(registry: registry, state: at0_10, target: target)
        #expect(plan.entries.map(\.status) == [.skipped(.outOfOrder), .applied, .pending])
        // Release 0.9's code did not contain 0.9: the device's mark stays below it, so 0.9 runs.
        let at0_9 = registry.device(lastRan: try Version("0.9"), over: upgraded)
        #expect(at0_9.lastMigratedVersion == nil && at0_9.lastAppVersion == "0.9")
        #expect(try MigrationPlan(registry: registry, state: at0_9, target: target).pending.map(\.migration.declared) == ["0.9", "0.10", "1.0"])
        // An imported record (MTMigration's marks, no history) at a shipped release: judged by the replay too.
        let imported = MigrationState(lastMigratedVersion: "0.10", lastAppVersion: "0.10")
        #expect(try MigrationPlan(registry: registry, state: imported, target: target).entries.first?.status == .skipped(.outOfOrder))
        // At a version that is not a release, the history is guessed: everything at or below the
        // mark counts as applied, but what shipped after that version (0.9, in 1.0) never ran.
        let guessed = MigrationState(lastMigratedVersion: "0.10", lastAppVersion: "0.11")
        #expect(try MigrationPlan(registry: registry, state: guessed, target: target).entries.map(\.status) == [.skipped(.outOfOrder), .applied, .pending])
    }
}
