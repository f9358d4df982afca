import Foundation
import MigrationTestSupport
import Testing
@testable import MigrationCore

/// A migration's start is recorded before its body; a start that no record ended was
/// interrupted. The body is told how many; three at one build hold it back (its track waits,
/// the other goes on), until the build changes or a run retries it. The process that died is
/// stood in for by attempts recorded as a killed run leaves them.
@Suite("Interrupted attempts")
struct InterruptedAttemptTests {
    /// A store the tests run against, as the package ships it.
    struct Kind: CustomTestStringConvertible, Sendable {
        let name: String
        let make: @Sendable (URL) -> any RecordsAttempts
        var testDescription: String { name }
    }

    static let kinds = [
        Kind(name: "memory") { _ in InMemoryMigrationStore() },
        Kind(name: "JSON file") { FileMigrationStore(url: $0.appendingPathComponent("state.json")) },
        Kind(name: "preferences plist") { PropertyListMigrationStore(url: $0.appendingPathComponent("prefs.plist")) },
        Kind(name: "UserDefaults") { _ in UserDefaultsMigrationStore(defaults: UserDefaults(suiteName: "attempts-\(UUID().uuidString)")!) },
    ]

    /// A killed run's attempt of `version` at `build`, `secondsAgo` before now.
    static func killed(_ version: String, build: String = "120", secondsAgo: Double = 60) -> MigrationAttempt {
        MigrationAttempt(track: .version, identifier: version, title: "m\(version)", appVersion: "1.0", appBuild: build,
                         date: Date(timeIntervalSinceNow: -secondsAgo))
    }

    /// 0.9 and 1.0 on the version track, 120 on the build track; each logs its interrupted attempts.
    static func registry(_ log: Recorder<String>) -> MigrationRegistry {
        var registry = MigrationRegistry(appName: "Notes")
        registry.migrate(toVersion: "0.9", title: "m0.9") { log.append("0.9:\($0.interruptedAttempts)") }
        registry.migrate(toVersion: "1.0", title: "m1.0") { log.append("1.0:\($0.interruptedAttempts)") }
        registry.migrate(toBuild: "120", title: "b120") { log.append("b120:\($0.interruptedAttempts)") }
        return registry
    }

    static func runner(_ log: Recorder<String>, build: String = "120", retry: Bool = false) throws -> MigrationRunner {
        var runner = MigrationRunner(registry: registry(log), target: try AppTarget(version: "1.0", build: build))
        runner.retriesInterrupted = retry
        return runner
    }

    @Test(arguments: kinds)
    func theStartIsRecordedBeforeTheBodyAndTheRecordTakesItBack(_ kind: Kind) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = kind.make(folder)
        let seen = Recorder<[MigrationAttempt]>()
        var registry = MigrationRegistry()
        registry.migrate(toVersion: "1.0", title: "Import the archive") { _ in seen.append(try store.loadAttempts()) }
        let report = try MigrationRunner(registry: registry, target: try AppTarget(version: "1.0", build: "120")).run(store: store)
        #expect(report.succeeded)
        let during = try #require(seen.items.first)
        #expect(during.map(\.identifier) == ["1.0"])
        #expect(during.first?.title == "Import the archive" && during.first?.appBuild == "120" && during.first?.appVersion == "1.0")
        let state = try store.load()
        #expect(state.attempts.isEmpty, "the record took the attempt back")
        #expect(state.history.map(\.identifier) == ["1.0"])
    }

    @Test(arguments: kinds)
    func theBodyIsToldHowManyEarlierAttemptsWereInterrupted(_ kind: Kind) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = kind.make(folder)
        try store.saveAttempts([Self.killed("1.0", secondsAgo: 120), Self.killed("1.0", secondsAgo: 60)])
        let log = Recorder<String>()
        let report = try Self.runner(log).run(store: store)
        #expect(report.succeeded && report.interruptedHoldBacks.isEmpty)
        #expect(log.items == ["0.9:0", "1.0:2", "b120:0"])
        #expect(try store.load().lastMigratedVersion == "1.0")
    }

    @Test(arguments: kinds)
    func threeInterruptionsAtOneBuildHoldTheMigrationBackAndTheOtherTrackGoesOn(_ kind: Kind) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = kind.make(folder)
        try store.saveAttempts([180, 120, 60].map { Self.killed("0.9", secondsAgo: $0) })
        let log = Recorder<String>()
        let report = try Self.runner(log).run(store: store)
        #expect(log.items == ["b120:0"], "0.9 and the version track behind it ran")
        let held = try #require(report.interruptedHoldBacks.first)
        #expect(held.version == (try Version("0.9")) && held.attempts.count == 3)
        #expect(held.description == "interrupted 3 times at build 120, held back")
        #expect(report.heldBack.map(\.declared) == ["1.0"])
        #expect(report.failure == nil, "a hold-back is no failure: the launch completes")
        let state = try store.load()
        #expect(state.lastMigratedVersion == nil && state.lastMigratedBuild == "120")
        #expect(state.lastAppVersion == nil, "the held track's update is not recorded")

        // The same build holds it back again; a new build, or a retry, runs it, telling it 3.
        #expect(try Self.runner(log).run(store: store).interruptedHoldBacks.count == 1)
        #expect(log.items == ["b120:0"])
        let retried = Recorder<String>()
        #expect(try Self.runner(retried, retry: true).run(store: store).succeeded)
        #expect(retried.items == ["0.9:3", "1.0:0"])
    }

    @Test func aNewBuildTriesTheMigrationAgain() throws {
        let store = InMemoryMigrationStore()
        store.saveAttempts([180, 120, 60].map { Self.killed("0.9", secondsAgo: $0) })
        let log = Recorder<String>()
        #expect(try Self.runner(log, build: "121").run(store: store).interruptedHoldBacks.isEmpty)
        #expect(log.items == ["0.9:0", "1.0:0", "b120:0"], "at build 121 no attempt was interrupted")
    }

    @Test func theLimitIsTheRegistrysAndZeroNeverHoldsBack() throws {
        let store = InMemoryMigrationStore()
        store.saveAttempts([Self.killed("0.9")])
        let log = Recorder<String>()
        var registry = Self.registry(log)
        registry.interruptionLimit = 1
        #expect(try MigrationRunner(registry: registry, target: try AppTarget(version: "1.0", build: "120")).run(store: store)
            .interruptedHoldBacks.count == 1)
        registry.interruptionLimit = 0
        #expect(try MigrationRunner(registry: registry, target: try AppTarget(version: "1.0", build: "120")).run(store: store)
            .interruptedHoldBacks.isEmpty)
        #expect(log.items == ["b120:0", "0.9:1", "1.0:0"])
    }

    @Test func interruptionsBeforeTheMigrationsLastRecordOrAResetNoLongerCount() throws {
        let store = InMemoryMigrationStore()
        var state = MigrationState.freshInstall
        state.attempts = [Self.killed("0.9", secondsAgo: 300), Self.killed("0.9", secondsAgo: 200)]
        state.history = [MigrationRecord(subject: .reset, identifier: nil, title: MigrationRule.resetTitle,
                                         date: Date(timeIntervalSinceNow: -150), duration: 0, outcome: .succeeded)]
        state.attempts.append(Self.killed("0.9", secondsAgo: 100))
        store.save(state)
        let log = Recorder<String>()
        #expect(try Self.runner(log).run(store: store).succeeded)
        #expect(log.items.first == "0.9:1", "the two before the reset do not count")
        #expect(MigrationRule.interruptedAttempts(of: try Version("0.9"), on: .version, in: store.load()).count == 3,
                "yet each is still an interrupted attempt, in the history")
    }

    @Test func aCancelledBodyIsNotAnInterruption() throws {
        let store = InMemoryMigrationStore()
        var registry = MigrationRegistry()
        registry.migrate(toVersion: "1.0", title: "Budgeted") { (_: MigrationContext) throws in throw CancellationError() }
        let report = try MigrationRunner(registry: registry, target: try AppTarget(version: "1.0")).run(store: store)
        #expect(report.wasCancelled)
        #expect(store.load().attempts.isEmpty, "the cancelled attempt was taken back")
    }

    /// A launch's budget (or its task) cancels the run: the running body stops unrecorded and
    /// its attempt is taken back; the migrations the budget had no time for record none.
    @Test func aRunCancelledAtLaunchLeavesNoInterruptedAttempt() async throws {
        let store = InMemoryMigrationStore()
        let inside = AsyncStream<Void>.makeStream()
        var registry = MigrationRegistry()
        registry.migrate(toVersion: "0.9", title: "Long") { _ async throws in
            inside.continuation.yield()
            try await Task.sleep(for: .seconds(3600))   // ends only by the cancellation
        }
        registry.migrate(toVersion: "1.0", title: "Next") { _ in }
        let runner = MigrationRunner(registry: registry, target: try AppTarget(version: "1.0"))
        let run = Task { try await runner.run(store: store) }
        for await _ in inside.stream { break }
        run.cancel()
        let report = try await run.value
        #expect(report.wasCancelled && report.deferred.map(\.declared).contains("1.0"))
        #expect(store.load().attempts.isEmpty, "a cancelled attempt is no interruption")
        let spent = try await runner.run(store: store, budget: .zero)
        #expect(spent.deferred.count == 2 && store.load().attempts.isEmpty, "a migration the budget had no time for never started")
    }

    @Test func aFailedBodyEndsItsAttempt() throws {
        struct Oops: Error {}
        let store = InMemoryMigrationStore()
        var registry = MigrationRegistry()
        registry.migrate(toVersion: "1.0", title: "Fails") { (_: MigrationContext) throws in throw Oops() }
        let runner = MigrationRunner(registry: registry, target: try AppTarget(version: "1.0"))
        for _ in 1...4 { #expect(try runner.run(store: store).failure != nil) }
        #expect(MigrationRule.interruptedAttempts(of: try Version("1.0"), on: .version, in: store.load()).isEmpty)
        #expect(try runner.run(store: store).interruptedHoldBacks.isEmpty, "four failures are no interruption")
    }

    @Test func theDropInKeepsTheRuleAndSaysWhy() throws {
        let store = InMemoryMigrationStore()
        store.saveAttempts([180, 120, 60].map { Self.killed("0.9", secondsAgo: $0) })
        let diagnostics = Recorder<String>()
        let ran = Recorder<String>()
        let migrator = Migrator(appVersion: "1.0", appBuild: "120", store: store, onDiagnostic: { diagnostics.append($0.description) })
        migrator.migrateToVersion("0.9") { ran.append("0.9") }
        migrator.migrateToVersion("1.0") { ran.append("1.0") }
        #expect(ran.items.isEmpty, "1.0 waits behind 0.9: run, it would raise the mark past 0.9 for good")
        #expect(store.load().lastMigratedVersion == nil)
        #expect(diagnostics.items.contains { $0.contains("migrateToVersion(\"0.9\")") && $0.contains("interrupted 3 times at build 120, held back") },
                "\(diagnostics.items)")
        Migrator(appVersion: "1.0", appBuild: "120", store: store, retriesInterrupted: true).migrateToVersion("0.9") { ran.append("0.9") }
        #expect(ran.items == ["0.9"])
    }

    @Test func aDryRunSaysWhatARunWouldHoldBack() throws {
        let store = InMemoryMigrationStore()
        store.saveAttempts([180, 120, 60].map { Self.killed("0.9", secondsAgo: $0) })
        let log = Recorder<String>()
        let preview = try Self.runner(log).dryRun(store.load())
        #expect(preview.steps.map { if case .heldBack = $0.outcome { true } else { false } } == [true, false])
        #expect(preview.heldBack.map(\.declared) == ["1.0"])
        #expect(try Self.runner(log, retry: true).dryRun(store.load()).steps.count == 3)
        #expect(log.items.isEmpty, "a dry-run runs nothing")
    }

    /// `UserDefaults` joins its recent records into the history every 64 steps: the attempts stay.
    @Test func userDefaultsKeepsTheAttemptsWhenItJoinsItsHistory() throws {
        let store = UserDefaultsMigrationStore(defaults: UserDefaults(suiteName: "attempts-join-\(UUID().uuidString)")!)
        try store.saveAttempts([Self.killed("0.9")])
        for index in 0..<70 {
            let record = MigrationRecord(subject: .updateHook, identifier: "1.0", title: "hook \(index)", date: Date(), duration: 0, outcome: .succeeded)
            try store.saveMarks(MigrationState(lastAppVersion: "1.0"), appending: [record])
        }
        #expect(try store.loadAttempts().map(\.identifier) == ["0.9"])
        #expect(try store.load().history.count == 70)
    }

    @Test func aHookIsNeverHeldBackAndRecordsNoAttempt() throws {
        let store = InMemoryMigrationStore()
        var registry = MigrationRegistry()
        let log = Recorder<String>()
        registry.onUpdate(title: "Reset statistics") { log.append("hook:\($0.interruptedAttempts)") }
        #expect(try MigrationRunner(registry: registry, target: try AppTarget(version: "1.0")).run(store: store).succeeded)
        #expect(log.items == ["hook:0"])
        #expect(store.load().attempts.isEmpty)
    }

    @Test func anAttemptSurvivesAndReadsBackThroughTheFile() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("state.json")
        let attempts = [Self.killed("0.9", secondsAgo: 60)]
        try FileMigrationStore(url: url).saveAttempts(attempts)
        let read = try FileMigrationStore(url: url).load().attempts
        #expect(read.map(\.identifier) == ["0.9"] && read.first?.appBuild == "120", "a new store object, as the next launch")
        #expect(abs((read.first?.date.timeIntervalSince1970 ?? 0) - attempts[0].date.timeIntervalSince1970) < 0.001, "to the millisecond")
        #expect(try FileMigrationStore(url: url).load().isFreshInstall, "an attempt alone is no record")
        #expect(try FileMigrationStore(url: url).load().historyIsComplete)
    }
}
