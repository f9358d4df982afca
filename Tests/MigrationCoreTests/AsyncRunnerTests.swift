import Foundation
import Testing
@testable import MigrationCore

/// `try await runner.run(store:)`: async bodies, budgets, progress and cancellation.
@Suite("Async runner")
struct AsyncRunnerTests {
    @Test func asyncAndSyncBodiesRunInPlanOrder() async throws {
        let ran = Recorder<String>()
        var registry = MigrationRegistry()
        registry.migrate(toVersion: "1.1", title: "async 1.1") { _ async throws in
            await Task.yield()
            ran.append("1.1")
        }
        registry.migrate(toVersion: "1.0", title: "sync 1.0") { _ in ran.append("1.0") }
        registry.migrate(toBuild: "5", title: "async build") { _ async in ran.append("b5") }
        registry.onUpdate(title: "What's New") { context async in ran.append("update from \(context.from ?? "nothing")") }
        registry.onBuildUpdate(title: "build hook") { _ async in ran.append("build update") }
        let store = InMemoryMigrationStore(state: .device(at: try Version("0.9"), build: try Version("4")))
        let runner = MigrationRunner(registry: registry, target: try AppTarget(version: "1.1", build: "5"))
        let report = try await runner.run(store: store)
        #expect(ran.items == ["1.0", "1.1", "b5", "update from 0.9", "build update"])
        #expect(report.succeeded && !report.wasCancelled && report.deferred.isEmpty)
        #expect(store.load().lastMigratedVersion == "1.1")
        #expect(store.load().lastAppBuild == "5")
        #expect(try await runner.run(store: store).steps.isEmpty)
    }

    @Test func aSynchronousRunRefusesAnAsyncBodyAndRecordsNothingForIt() throws {
        var registry = MigrationRegistry()
        registry.migrate(toVersion: "1.0", title: "sync") { _ in }
        registry.migrate(toVersion: "1.1", title: "async") { _ async in }
        let store = InMemoryMigrationStore()
        let report = try MigrationRunner(registry: registry, target: try AppTarget(version: "1.1")).run(store: store)
        #expect(report.steps.map(\.outcome) == [.succeeded, .failed("did not run: \(AsynchronousBodyError.inSynchronousRun)")])
        #expect(store.load().lastMigratedVersion == "1.0")
        #expect(store.load().history.count == 1)
    }

    /// Four migrations that each take a second on `clock`, and a hook.
    func timedRegistry(_ clock: TestClock, ran: Recorder<String>) -> MigrationRegistry {
        var registry = MigrationRegistry()
        for version in ["1.1", "1.2", "1.3", "1.4"] {
            registry.migrate(toVersion: version, title: version) { _ async in
                clock.advance(by: .seconds(1))
                ran.append(version)
            }
        }
        registry.onUpdate(title: "What's New") { _ in ran.append("What's New") }
        return registry
    }

    @Test func aBudgetDefersTheRestAndTheNextLaunchContinues() async throws {
        let clock = TestClock()
        let ran = Recorder<String>()
        let store = InMemoryMigrationStore(state: .device(at: try Version("1.0")))
        let runner = MigrationRunner(registry: timedRegistry(clock, ran: ran), target: try AppTarget(version: "1.4"))

        let first = try await runner.run(store: store, budget: .seconds(2), clock: clock)
        #expect(ran.items == ["1.1", "1.2"])
        #expect(first.deferred.map(\.declared) == ["1.3", "1.4"])
        #expect(first.succeeded && !first.wasCancelled)
        #expect(store.load().lastMigratedVersion == "1.2")
        #expect(store.load().lastAppVersion == "1.0", "the hooks wait until every migration is done")

        let second = try await runner.run(store: store, budget: .seconds(1), clock: clock)
        #expect(ran.items == ["1.1", "1.2", "1.3"])
        #expect(second.deferred.map(\.declared) == ["1.4"])

        let third = try await runner.run(store: store, budget: .seconds(5), clock: clock)
        #expect(ran.items == ["1.1", "1.2", "1.3", "1.4", "What's New"])
        #expect(third.deferred.isEmpty)
        #expect(store.load().lastAppVersion == "1.4")
    }

    @Test func aBudgetNeverInterruptsABodyAndASpentOneRunsNothing() async throws {
        let clock = TestClock()
        let ran = Recorder<String>()
        let store = InMemoryMigrationStore(state: .device(at: try Version("1.0")))
        let runner = MigrationRunner(registry: timedRegistry(clock, ran: ran), target: try AppTarget(version: "1.4"))
        let none = try await runner.run(store: store, budget: .zero, clock: clock)
        #expect(ran.items.isEmpty && none.deferred.count == 4 && none.steps.isEmpty)
        let one = try await runner.run(store: store, budget: .milliseconds(1), clock: clock)
        #expect(ran.items == ["1.1"], "the first body overran the budget and still finished")
        #expect(one.steps.map(\.outcome) == [.succeeded])
    }

    @Test func progressIsReportedInOrderClampedAndMonotonic() async throws {
        var registry = MigrationRegistry()
        registry.migrate(toVersion: "1.0", title: "import") { context async in
            for fraction in [0.25, 0.1, .nan, -3, 0.5, 0.5, 7, 0.9] { context.reportProgress(fraction) }
            #expect(context.progress == 1)
        }
        let events = Recorder<String>()
        let runner = MigrationRunner(registry: registry, target: try AppTarget(version: "1.0"))
        _ = try await runner.run(store: InMemoryMigrationStore()) { event in
            switch event {
            case .started(let subject): events.append("start \(subject.title)")
            case .progress(let subject, let fraction): events.append("\(subject.title) \(fraction)")
            case .finished(let step): events.append("end \(step.subject.title)")
            }
        }
        #expect(events.items == ["start import", "import 0.25", "import 0.5", "import 1.0", "end import", "start update", "end update"]
            .filter { !$0.hasSuffix("update") })
    }

    @Test func aSynchronousRunReportsProgressToo() throws {
        var registry = MigrationRegistry()
        registry.migrate(toVersion: "1.0", title: "import") { context in
            context.reportProgress(0.5)
            context.reportProgress(1)
        }
        var fractions: [Double] = []
        _ = try MigrationRunner(registry: registry, target: try AppTarget(version: "1.0")).run(store: InMemoryMigrationStore()) { event in
            if case .progress(_, let fraction) = event { fractions.append(fraction) }
        }
        #expect(fractions == [0.5, 1])
    }

    /// Passes once `open()` was called; bodies await it to let a test act mid-run.
    final class Gate: Sendable {
        private let opened = AsyncStream<Void>.makeStream()
        func open() { opened.continuation.yield() }
        func wait() async { for await _ in opened.stream { return } }
    }

    @Test func cancellingTheRunStopsItAndKeepsEarlierSuccesses() async throws {
        let reached = Gate()
        let sawCancellation = Recorder<Bool>()
        let ran = Recorder<String>()
        var registry = MigrationRegistry()
        registry.migrate(toVersion: "1.1", title: "first") { _ in ran.append("1.1") }
        registry.migrate(toVersion: "1.2", title: "second") { _ async throws in
            if sawCancellation.items.isEmpty {
                reached.open()
                while !Task.isCancelled { await Task.yield() }
                sawCancellation.append(Task.isCancelled)
            }
            try Task.checkCancellation()
            ran.append("1.2")
        }
        registry.migrate(toVersion: "1.3", title: "third") { _ in ran.append("1.3") }
        registry.onUpdate(title: "What's New") { _ in ran.append("update") }
        let store = InMemoryMigrationStore(state: .device(at: try Version("1.0")))
        let runner = MigrationRunner(registry: registry, target: try AppTarget(version: "1.3"))

        let run = Task { try await runner.run(store: store) }
        await reached.wait()
        run.cancel()
        let report = try await run.value

        #expect(ran.items == ["1.1"])
        #expect(sawCancellation.items == [true])
        #expect(report.wasCancelled)
        #expect(report.steps.map(\.outcome) == [.succeeded, .cancelled])
        #expect(report.deferred.map(\.declared) == ["1.2", "1.3"])
        #expect(store.load().lastMigratedVersion == "1.1")
        #expect(store.load().history.map(\.title) == ["first"], "nothing is recorded for the cancelled body")
        #expect(store.load().lastAppVersion == "1.0")

        let next = try await runner.run(store: store)
        #expect(ran.items == ["1.1", "1.2", "1.3", "update"])
        #expect(!next.wasCancelled)
    }

    @Test func cancellationBetweenMigrationsStopsBeforeTheNextOne() async throws {
        let ran = Recorder<String>()
        var registry = MigrationRegistry()
        registry.migrate(toVersion: "1.1", title: "first") { _ async in
            withUnsafeCurrentTask { $0?.cancel() }
            ran.append("1.1")
        }
        registry.migrate(toVersion: "1.2", title: "second") { _ in ran.append("1.2") }
        let store = InMemoryMigrationStore(state: .device(at: try Version("1.0")))
        let report = try await Task {
            try await MigrationRunner(registry: registry, target: try AppTarget(version: "1.2")).run(store: store)
        }.value
        #expect(ran.items == ["1.1"])
        #expect(report.wasCancelled && report.deferred.map(\.declared) == ["1.2"])
        #expect(store.load().lastMigratedVersion == "1.1")
    }

    @MainActor final class ModelContext {
        var inserted: [String] = []
    }

    @Test func aMainActorBodyRunsOnTheMainActor() async throws {
        let context = ModelContext()
        var registry = MigrationRegistry()
        registry.migrate(toVersion: "1.0", title: "elsewhere") { _ async in }
        registry.migrate(toVersion: "1.1", title: "SwiftData") { @MainActor _ async in
            MainActor.assertIsolated()
            context.inserted.append("note")
        }
        let report = try await MigrationRunner(registry: registry, target: try AppTarget(version: "1.1")).run(store: InMemoryMigrationStore())
        #expect(report.succeeded)
        #expect(await context.inserted == ["note"])
    }

    @Test func onAStoreThatCommitsABlockWithItsRecordSynchronousBodiesRunAndAsyncOnesAreRefused() async throws {
        let ran = Recorder<String>()
        var registry = MigrationRegistry()
        registry.migrate(toVersion: "1.0", title: "sync") { _ in ran.append("1.0") }
        registry.migrate(toVersion: "1.1", title: "async") { _ async in ran.append("1.1") }
        let inner = InMemoryMigrationStore()
        let store = CommittingStore(inner: inner)
        let report = try await MigrationRunner(registry: registry, target: try AppTarget(version: "1.1")).run(store: store)
        #expect(ran.items == ["1.0"])
        #expect(report.steps.map(\.outcome) == [.succeeded, .failed("did not run: \(AsynchronousBodyError.inTransaction)")])
        #expect(inner.load().lastMigratedVersion == "1.0")
    }
}
