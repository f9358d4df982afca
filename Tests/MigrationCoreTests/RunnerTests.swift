import Foundation
import Testing
@testable import MigrationCore

@Suite("Runner")
struct RunnerTests {
    struct Boom: Error, CustomStringConvertible { var description: String { "boom" } }

    /// A registry whose bodies append their version to `ran`, and whose `failing` version throws.
    func registry(_ versions: [String], failing: String? = nil, ran: Recorder<String>) -> MigrationRegistry {
        var registry = MigrationRegistry(appName: "Test")
        for version in versions {
            registry.migrate(toVersion: version, title: "v\(version)") { context in
                if version == failing { throw Boom() }
                ran.append(version)
                context.log("ran \(version)")
            }
        }
        registry.onUpdate(title: "update") { _ in ran.append("update") }
        return registry
    }

    @Test func runExecutesPendingInOrderRecordsEachAndFiresHooks() throws {
        let ran = Recorder<String>()
        let runner = MigrationRunner(registry: registry(["1.0", "0.9", "1.1", "0.5"], ran: ran), target: try AppTarget(version: "1.0"))
        let store = runner.simulate(from: try Version("0.8"))
        let report = try runner.run(store: store)
        #expect(ran.items == ["0.9", "1.0", "update"])
        #expect(report.succeeded)
        #expect(report.steps.map(\.log) == [["ran 0.9"], ["ran 1.0"], []])
        #expect(store.load().lastMigratedVersion == "1.0")
        #expect(store.load().lastAppVersion == "1.0")
        // The simulated device's record (naming 0.8), then one per step.
        #expect(store.load().history.map(\.subject) == [.reset, .versionMigration, .versionMigration, .updateHook])
        #expect(store.load().history.map(\.outcome) == [.succeeded, .succeeded, .succeeded, .succeeded])
        #expect(try runner.plan(store: store).pending.isEmpty)
    }

    @Test func aStoreSetBackToAnOlderDeviceReplaysTheUpgradeHooksIncluded() throws {
        let ran = Recorder<String>()
        let runner = MigrationRunner(registry: registry(["0.5", "0.9", "1.0"], ran: ran), target: try AppTarget(version: "1.0"))
        let store = runner.simulate(from: try Version("0.8"))
        _ = try runner.run(store: store)
        try store.update { [registry = runner.registry] in $0 = registry.device(lastRan: try Version("0.8"), over: $0) }
        #expect(store.load().lastAppVersion == "0.8")
        let plan = try runner.plan(store: store)
        #expect(plan.pending.map(\.migration.declared) == ["0.9", "1.0"])
        #expect(plan.hooks.map(\.fires) == [true])
        #expect(plan.problems.isEmpty)
        _ = try runner.run(store: store)
        #expect(ran.items == ["0.9", "1.0", "update", "0.9", "1.0", "update"])
    }

    @Test func aThrowingBodyStopsTheRunKeepsEarlierSuccessesAndStaysPending() throws {
        let ran = Recorder<String>()
        let runner = MigrationRunner(registry: registry(["0.9", "0.10", "1.0"], failing: "0.10", ran: ran),
                                     target: try AppTarget(version: "1.0"))
        let store = runner.simulate(from: try Version("0.8"))
        let report = try runner.run(store: store)
        #expect(ran.items == ["0.9"])
        #expect(report.failure?.outcome == .failed("boom"))
        #expect(store.load().lastMigratedVersion == "0.9")
        #expect(store.load().lastAppVersion == "0.8")
        let after = try runner.plan(store: store)
        try #require(after.pending.map(\.migration.declared) == ["0.10", "1.0"])
        #expect(after.pending[0].status == .failed)
        #expect(after.lastRecord(of: after.pending[0].migration)?.error == "boom")
    }

    @Test func aSecondRunResumesAtTheFailedMigration() throws {
        let ran = Recorder<String>()
        let store = InMemoryMigrationStore(state: .device(at: try Version("0.8")))
        let target = try AppTarget(version: "1.0")
        _ = try MigrationRunner(registry: registry(["0.9", "0.10", "1.0"], failing: "0.10", ran: ran), target: target).run(store: store)
        let report = try MigrationRunner(registry: registry(["0.9", "0.10", "1.0"], ran: ran), target: target).run(store: store)
        #expect(ran.items == ["0.9", "0.10", "1.0", "update"])
        #expect(report.succeeded)
    }

    @Test func dryRunRunsNothingWritesNothingAndListsWhatARunWould() throws {
        let ran = Recorder<String>()
        let runner = MigrationRunner(registry: registry(["0.9", "1.0", "1.1"], ran: ran), target: try AppTarget(version: "1.0"))
        let store = runner.simulate(from: try Version("0.8"))
        let before = store.load()
        let preview = try runner.dryRun(store: store)
        #expect(ran.items.isEmpty)
        #expect(store.load() == before)
        #expect(preview.mode == .dryRun)
        #expect(preview.steps.map(\.subject.label) == ["version 0.9 \"v0.9\"", "version 1.0 \"v1.0\"", "onUpdate \"update\""])
        #expect(preview.steps.allSatisfy { $0.outcome == .wouldRun })
        #expect(preview.state.lastMigratedVersion == "1.0")
    }

    @Test func aStoreThatRefusesToSaveStopsTheRunAndKeepsWhatWasRecorded() throws {
        let ran = Recorder<String>()
        let store = SaveRefusingStore(allowedSaves: 1)
        let runner = MigrationRunner(registry: registry(["0.1", "0.2", "0.3"], ran: ran), target: try AppTarget(version: "1.0"))
        let report = try runner.run(store: store)
        #expect(ran.items == ["0.1", "0.2"])
        #expect(report.saveError != nil)
        #expect(!report.succeeded)
        #expect(report.failure?.outcome == .failed("ran, but could not be recorded: it will run again next launch: refusing store: cannot be written (disk full); the previous records are unchanged"))
        #expect(store.inner.load().lastMigratedVersion == "0.1")
    }

    @Test func aStoreThatCommitsABlockWithItsRecordReportsAnUnsavedRecordAsNotRun() throws {
        let ran = Recorder<String>()
        let refusing = SaveRefusingStore(allowedSaves: 1)
        let store = CommittingStore(inner: refusing)
        let runner = MigrationRunner(registry: registry(["0.1", "0.2", "0.3"], ran: ran), target: try AppTarget(version: "1.0"))
        let report = try runner.run(store: store)
        #expect(ran.items == ["0.1", "0.2"])
        #expect(report.saveError == MigrationStoreError(location: "refusing store", problem: .unwritable("disk full")))
        #expect(report.failure?.outcome == .failed("did not run: refusing store: cannot be written (disk full); the previous records are unchanged"))
        #expect(refusing.inner.load().lastMigratedVersion == "0.1")
    }

    @Test func anUnreadableStoreThrowsAndRunsNothing() throws {
        let ran = Recorder<String>()
        let runner = MigrationRunner(registry: registry(["0.1"], ran: ran), target: try AppTarget(version: "1.0"))
        #expect(throws: MigrationStoreError.self) { try runner.run(store: FailingMigrationStore()) }
        #expect(ran.items.isEmpty)
    }

    @Test func baselineRecordsEverythingAsAppliedWithoutRunning() throws {
        let ran = Recorder<String>()
        let runner = MigrationRunner(registry: registry(["0.9", "1.0", "1.1"], ran: ran), target: try AppTarget(version: "1.0"), policy: .baseline)
        let store = InMemoryMigrationStore()
        let report = try runner.run(store: store)
        #expect(ran.items.isEmpty)
        #expect(report.steps.map(\.outcome) == [.baselined, .baselined])
        #expect(store.load().lastMigratedVersion == "1.0")
        #expect(try runner.plan(store: store).entries.map(\.status) == [.applied, .applied, .skipped(.aboveAppVersion)])
    }

    @Test func bodiesSeeWhereTheDeviceWasAndWhereItGoes() throws {
        let seen = Recorder<String>()
        var registry = MigrationRegistry()
        registry.migrate(toVersion: "0.9", title: "m") { seen.append("m \($0.from ?? "-") \($0.to)") }
        registry.migrate(toVersion: "0.9.5", title: "n") { seen.append("n \($0.from ?? "-") \($0.to)") }
        registry.onUpdate(title: "h") { seen.append("h \($0.from ?? "-") \($0.to)") }
        let runner = MigrationRunner(registry: registry, target: try AppTarget(version: "1.0"))
        var state = MigrationState.device(at: try Version("0.8"))
        state.lastAppVersion = "0.8.7"
        _ = try runner.run(store: InMemoryMigrationStore(state: state))
        #expect(seen.items == ["m 0.8 1.0", "n 0.9 1.0", "h 0.8.7 1.0"])
    }

    @Test func observerSeesEachStepStartAndFinish() throws {
        let ran = Recorder<String>()
        let runner = MigrationRunner(registry: registry(["0.9"], ran: ran), target: try AppTarget(version: "1.0"))
        var events: [String] = []
        _ = try runner.run(store: InMemoryMigrationStore()) { event in
            switch event {
            case .started(let subject): events.append("start \(subject.title)")
            case .progress(let subject, let fraction): events.append("\(subject.title) \(fraction)")
            case .finished(let step): events.append("end \(step.subject.title)")
            }
        }
        #expect(events == ["start v0.9", "end v0.9", "start update", "end update"])
    }
}
