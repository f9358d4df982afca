import Foundation
import Testing
@testable import MigrationCore
import MigrationTestSupport

/// A simulated device that last ran a shipped release has the history replaying the releases
/// would have recorded.
@Suite("Release history")
struct ReleaseHistoryTests {
    /// 0.7 was added in release 1.0: devices past 0.7 by then never run it.
    static func notes() throws -> MigrationRegistry {
        var registry = MigrationRegistry(appName: "Notes")
        registry.releases = try ["0.5", "0.7", "0.8", "0.9", "1.0"].map { try Version($0) }
        registry.migrate(toVersion: "0.5", title: "Five")
        registry.migrate(toVersion: "0.8", title: "Eight")
        registry.migrate(toVersion: "0.7", title: "Trim titles", since: "1.0")
        registry.migrate(toVersion: "1.0", title: "Ten", whatsNew: ["Tags"])
        return registry
    }

    func statuses(_ registry: MigrationRegistry, from: String, to: String) throws -> [String: MigrationStatus] {
        let plan = try MigrationPlan(registry: registry, state: registry.device(lastRan: try Version(from)).state,
                                     target: try AppTarget(version: to))
        return Dictionary(uniqueKeysWithValues: plan.entries.map { ($0.migration.declared, $0.status) })
    }

    @Test func aMigrationAddedLaterAtOrBelowTheMarkIsOutOfOrder() throws {
        let registry = try Self.notes()
        let statuses = try statuses(registry, from: "0.8", to: "1.0")
        #expect(statuses == ["0.5": .applied, "0.8": .applied, "0.7": .skipped(.outOfOrder), "1.0": .pending])
        let plan = try MigrationPlan(registry: registry, state: registry.device(lastRan: try Version("0.8")).state,
                                     target: try AppTarget(version: "1.0"))
        let problem = try #require(plan.problems.first { if case .outOfOrder = $0.kind { true } else { false } })
        #expect(problem.severity == .warning)
        #expect(problem.message.contains("give it a version above the last release, e.g. 1.0.1"))
    }

    @Test func aMigrationAddedLaterAboveTheMarkIsPending() throws {
        // A device at 0.5 has its mark at 0.5: 0.7 is above it and runs like any other.
        #expect(try statuses(Self.notes(), from: "0.5", to: "1.0")["0.7"] == .pending)
    }

    @Test func aFromThatIsNotAReleaseIsGuessedAndSaysSo() throws {
        let device = try Self.notes().device(lastRan: try Version("0.85"))
        #expect(!device.historyIsKnown)
        #expect(device.note?.contains("0.85 is not a shipped release (0.5, 0.7, 0.8, 0.9, 1.0): its history is guessed") == true)
        // The marks at 0.85, and a record naming it, so that a run does not forget where it was.
        var marks = device.state
        marks.history = []
        #expect(marks == .device(at: try Version("0.85")))
        #expect(device.state.history.map(\.subject) == [.reset] && device.state.history.map(\.identifier) == ["0.85"])
        var bare = MigrationRegistry()
        bare.migrate(toVersion: "1.0", title: "t")
        #expect(bare.device(lastRan: try Version("0.8")).note?.hasPrefix("no release history is declared") == true)
        #expect(bare.device(lastRan: nil).historyIsKnown)
    }

    @Test func aSinceThatIsNotAVersionIsAnError() throws {
        var registry = MigrationRegistry()
        registry.migrate(toVersion: "1.0", title: "t", since: "soon")
        let problem = try #require(registry.problems.first)
        #expect(problem.severity == .error)
        #expect(problem.message.hasPrefix("version 1.0 \"t\" since: \"soon\" is not a version"))
    }

    @Test func buildsAreAppliedUpToTheDevicesBuild() throws {
        var registry = try Self.notes()
        registry.migrate(toBuild: "90", title: "Ninety")
        registry.migrate(toBuild: "95", title: "Ninety-five")
        let state = registry.device(lastRan: try Version("0.8"), build: try Version("90")).state
        let plan = try MigrationPlan(registry: registry, state: state, target: try AppTarget(version: "1.0", build: "100"))
        #expect(plan.entries.filter { $0.migration.track == .build }.map(\.status) == [.applied, .pending])
        #expect(state.lastAppVersion == "0.8" && state.lastAppBuild == "90")
    }

    /// Brute force: run every release up to "from" for real, each with the migrations its
    /// code contained, on one store; then the plan to the target agrees with the simulation.
    @Test func theSimulationAgreesWithRunningEveryReleaseInOrder() throws {
        var outOfOrder = 0
        for seed in 0..<300 {
            let plans = try replayed(seed: seed)
            #expect(plans.simulated.entries.map(\.status) == plans.replayed.entries.map(\.status), "seed \(seed)")
            #expect(plans.simulated.state.lastMigratedVersion == plans.replayed.state.lastMigratedVersion, "seed \(seed)")
            #expect(plans.simulated.problems.map(\.message) == plans.replayed.problems.map(\.message), "seed \(seed)")
            if plans.simulated.entries.contains(where: { $0.status == .skipped(.outOfOrder) }) { outOfOrder += 1 }
        }
        // The random histories do reach the case that matters.
        #expect(outOfOrder >= 20)
    }

    /// A random registry with releases and `since`, its device at a random release: the plan
    /// from the simulation, and from a store that ran every release for real.
    func replayed(seed: Int) throws -> (simulated: MigrationPlan, replayed: MigrationPlan) {
        var random = SplitMix(state: UInt64(seed) &* 7919)
        // Distinct as versions (not "5" and "5.0"), as a manifest's releases are.
        var distinct = Set<Version>()
        let releases = Set(try (0..<Int.random(in: 1...6, using: &random)).map { _ in random.version() }.sorted()
            .filter { distinct.insert(try Version($0)).inserted })
        var registry = MigrationRegistry()
        registry.releases = try releases.map { try Version($0) }
        var declared: [(version: String, since: String?)] = []
        for _ in 0..<Int.random(in: 0...15, using: &random) {
            let since = Bool.random(using: &random) ? releases.randomElement(using: &random) : nil
            declared.append((random.version(), since))
        }
        for (version, since) in declared { registry.migrate(toVersion: version, title: version, since: since) }
        let from = try Version(try #require(releases.randomElement(using: &random)))
        let target = try AppTarget(version: random.version())

        let store = InMemoryMigrationStore()
        for release in try releases.map({ try Version($0) }).sorted() where release <= from {
            var shipped = MigrationRegistry()
            for (version, since) in declared where try Version(since ?? version) <= release {
                shipped.migrate(toVersion: version, title: version)
            }
            _ = try MigrationRunner(registry: shipped, target: AppTarget(version: release)).run(store: store)
        }
        return (try MigrationPlan(registry: registry, state: registry.device(lastRan: from).state, target: target),
                try MigrationPlan(registry: registry, state: store.load(), target: target))
    }
}

@Suite("Upgrade matrix")
struct UpgradeMatrixTests {
    @Test func everyReleaseBelowTheTargetIsARowAfterAFreshInstall() throws {
        let registry = try ReleaseHistoryTests.notes()
        let matrix = try UpgradeMatrix(registry: registry, target: try AppTarget(version: "1.0"))
        #expect(matrix.rows.map { $0.from?.text } == [nil, "0.5", "0.7", "0.8", "0.9"])
        #expect(matrix.rows.map { $0.runs.map(\.declared) } == [["0.5", "0.7", "0.8", "1.0"], ["0.7", "0.8", "1.0"], ["0.7", "0.8", "1.0"], ["1.0"], ["1.0"]])
        // A device at 0.7 never had 0.7's code and its mark is 0.5: it runs 0.7 now.
        #expect(matrix.rows.map { $0.outOfOrder.map(\.declared) } == [[], [], [], ["0.7"], ["0.7"]])
        #expect(matrix.rows.map { $0.plan.whatsNew.count } == [1, 1, 1, 1, 1])
        try #require(matrix.migrations.map(\.declared) == ["0.5", "0.7", "0.8", "1.0"] && matrix.rows.count == 5)
        #expect(matrix.rows[3].status(of: registry.migrations[0]) == .applied)
    }

    @Test func aRecordedFailureShowsOnEveryRowThatRunsIt() throws {
        let registry = try ReleaseHistoryTests.notes()
        var lastRun = MigrationState(lastMigratedVersion: "0.8", lastAppVersion: "0.8", historyIsComplete: false)
        lastRun.history = [MigrationRecord(subject: .versionMigration, identifier: "1.0", title: "Ten", date: Date(),
                                           duration: 0, outcome: .failed, error: "disk full")]
        let matrix = try UpgradeMatrix(registry: registry, target: try AppTarget(version: "1.0"), lastRun: lastRun)
        #expect(matrix.rows.allSatisfy { $0.failed.map(\.declared) == ["1.0"] })
    }
}
