import Testing
@testable import MigrationCore
import MigrationTestSupport

/// A dry-run, a simulation, a real run and the drop-in API must agree exactly.
@Suite("Agreement")
struct AgreementTests {
    @Test("dry-run, simulation, run and drop-in agree", arguments: 0..<200)
    func agree(seed: Int) throws {
        var random = SplitMix(state: UInt64(seed))
        let ran = Recorder<String>()
        var registry = MigrationRegistry()
        let declared = (0..<Int.random(in: 0...25, using: &random)).map { _ in random.version() }
        for version in declared {
            registry.migrate(toVersion: version, title: version) { _ in ran.append(version) }
        }
        let from = Bool.random(using: &random) ? nil : try Version(random.version())
        let target = try AppTarget(version: random.version())
        let runner = MigrationRunner(registry: registry, target: target)

        let sandbox = runner.simulate(from: from)
        let preview = try runner.dryRun(store: sandbox)
        let report = try runner.run(store: sandbox)
        let wouldRun = preview.steps.map(\.subject.label)
        #expect(report.steps.map(\.subject.label) == wouldRun)
        #expect(report.state.lastMigratedVersion == preview.state.lastMigratedVersion)
        #expect(ran.items == report.steps.compactMap { if case .migration(let m) = $0.subject { m.declared } else { nil } })

        // The drop-in API, called in version order with duplicates once, runs the same blocks.
        let dropIn = Recorder<String>()
        let migrator = Migrator(appVersion: target.version.text, store: InMemoryMigrationStore(state: .device(at: from)))
        for entry in try runner.plan(.device(at: from)).entries where entry.status != .skipped(.duplicate) {
            migrator.migrateToVersion(entry.migration.declared) { dropIn.append(entry.migration.declared) }
        }
        #expect(dropIn.items == ran.items)
    }

    /// A version that may have more than four parts or components over 65,535, so that plans
    /// fall back from packed keys to full comparison.
    static func wideVersion(_ random: inout SplitMix) -> String {
        (0..<Int.random(in: 1...6, using: &random)).map { _ in
            String(Bool.random(using: &random) ? Int.random(in: 0...5, using: &random) : Int.random(in: 65_530...65_540, using: &random))
        }.joined(separator: ".")
    }

    struct Failure: Error {}

    /// A random upgrade: a registry of versions, builds and hooks (one version may fail),
    /// with bodies that append what they do to `ran`, synchronous or `async`, and a device.
    struct Upgrade {
        var registry = MigrationRegistry()
        let versions: [String], failing: String?, hooks: Int, buildHooks: Int
        let device: MigrationState, target: AppTarget, policy: FreshInstallPolicy

        init(seed: Int, async: Bool, ran: Recorder<String>) throws {
            var random = SplitMix(state: UInt64(seed) &+ 1_000)
            versions = (0..<Int.random(in: 0...12, using: &random)).map { _ in AgreementTests.wideVersion(&random) }
            let builds = (0..<Int.random(in: 0...6, using: &random)).map { _ in String(Int.random(in: 1...20, using: &random)) }
            let failing = Bool.random(using: &random) ? versions.randomElement(using: &random) : nil
            self.failing = failing
            hooks = Int.random(in: 0...3, using: &random)
            buildHooks = Int.random(in: 0...2, using: &random)
            for version in versions {
                let work: MigrationBody = { _ in
                    if version == failing { throw Failure() }
                    ran.append("v" + version)
                }
                if async {
                    registry.migrate(toVersion: version, title: version) { context async throws in
                        await Task.yield()
                        try work(context)
                    }
                } else {
                    registry.migrate(toVersion: version, title: version, body: work)
                }
            }
            for build in builds {
                if async {
                    registry.migrate(toBuild: build, title: build) { _ async in ran.append("b" + build) }
                } else {
                    registry.migrate(toBuild: build, title: build) { _ in ran.append("b" + build) }
                }
            }
            for index in 0..<hooks {
                if async {
                    registry.onUpdate(title: "hook \(index)") { _ async in ran.append("update") }
                } else {
                    registry.onUpdate(title: "hook \(index)") { _ in ran.append("update") }
                }
            }
            for index in 0..<buildHooks { registry.onBuildUpdate(title: "build hook \(index)") { _ in ran.append("build update") } }

            let fresh = Bool.random(using: &random)
            let from = fresh ? nil : try Version(AgreementTests.wideVersion(&random))
            let fromBuild = fresh ? nil : try Version(String(Int.random(in: 1...20, using: &random)))
            policy = fresh && Bool.random(using: &random) ? .baseline : .runAll
            target = try AppTarget(version: AgreementTests.wideVersion(&random), build: String(Int.random(in: 1...20, using: &random)))
            device = MigrationState.device(at: from, build: fromBuild)
        }

        var runner: MigrationRunner { MigrationRunner(registry: registry, target: target, policy: policy) }
    }

    /// The synchronous run (in an async context, `runner.run(store:)` is the asynchronous one).
    static func runSynchronously(_ runner: MigrationRunner, store: any MigrationStore) throws -> RunReport {
        try runner.run(store: store)
    }

    /// The same marks, compared as versions.
    static func expectSameMarks(_ left: MigrationState, _ right: MigrationState) {
        for mark in RecordedMark.allCases {
            #expect(left[mark].flatMap { try? Version($0) } == right[mark].flatMap { try? Version($0) }, "\(mark)")
        }
    }

    @Test("async and synchronous runs of the same registry do the same steps and leave the same state", arguments: 0..<200)
    func asyncAndSyncRunsAgree(seed: Int) async throws {
        let ranSync = Recorder<String>(), ranAsync = Recorder<String>(), ranMixed = Recorder<String>()
        let sync = try Upgrade(seed: seed, async: false, ran: ranSync)
        let async = try Upgrade(seed: seed, async: true, ran: ranAsync)
        let mixed = try Upgrade(seed: seed, async: false, ran: ranMixed)
        let viaSync = InMemoryMigrationStore(state: sync.device)
        let viaAsync = InMemoryMigrationStore(state: sync.device)
        let viaMixed = InMemoryMigrationStore(state: sync.device)
        let syncReport = try Self.runSynchronously(sync.runner, store: viaSync)
        let asyncReport = try await async.runner.run(store: viaAsync)
        let mixedReport = try await mixed.runner.run(store: viaMixed)       // synchronous bodies, awaited
        #expect(ranAsync.items == ranSync.items)
        #expect(ranMixed.items == ranSync.items)
        for report in [asyncReport, mixedReport] {
            #expect(report.steps.map(\.subject.label) == syncReport.steps.map(\.subject.label))
            #expect(report.steps.map(\.outcome) == syncReport.steps.map(\.outcome))
            #expect(report.succeeded == syncReport.succeeded)
        }
        for store in [viaAsync, viaMixed] {
            Self.expectSameMarks(store.load(), viaSync.load())
            #expect(store.load().history.map { "\($0.subject) \($0.title) \($0.outcome)" }
                == viaSync.load().history.map { "\($0.subject) \($0.title) \($0.outcome)" })
        }
    }

    @Test("registry runs and drop-in calls agree on builds, hooks, failures, baselines and wide versions", arguments: 0..<200)
    func agreeOnEverything(seed: Int) async throws {
        let ran = Recorder<String>()
        let upgrade = try Upgrade(seed: seed, async: false, ran: ran)
        let (registry, failing, hooks, buildHooks) = (upgrade.registry, upgrade.failing, upgrade.hooks, upgrade.buildHooks)
        let (device, target, policy) = (upgrade.device, upgrade.target, upgrade.policy)
        let runner = MigrationRunner(registry: registry, target: target, policy: policy)
        let viaRegistry = InMemoryMigrationStore(state: device)
        _ = try Self.runSynchronously(runner, store: viaRegistry)

        // The drop-in, called in run order (version order, each version once), with one update
        // block per track where the registry has hooks: MTMigration fires only the first. Odd
        // seeds call it with `async` blocks.
        let dropIn = Recorder<String>()
        let store = InMemoryMigrationStore(state: device)
        let migrator = Migrator(appVersion: target.version.text, appBuild: target.build?.text, store: store, policy: policy)
        let plan = try runner.plan(device)
        do {
            for entry in plan.entries where entry.migration.version != nil && entry.status != .skipped(.duplicate) {
                let migration = entry.migration
                if migration.track == .version {
                    let block = {
                        if migration.declared == failing { throw Failure() }
                        dropIn.append("v" + migration.declared)
                    }
                    if seed.isMultiple(of: 2) {
                        try migrator.migrateToVersion(migration.declared, block)
                    } else {
                        try await migrator.migrateToVersion(migration.declared) { () async throws in
                            await Task.yield()
                            try block()
                        }
                    }
                } else {
                    migrator.migrateToBuild(migration.declared) { dropIn.append("b" + migration.declared) }
                }
            }
            migrator.applicationUpdateBlock { for _ in 0..<hooks { dropIn.append("update") } }
            migrator.buildNumberUpdateBlock { for _ in 0..<buildHooks { dropIn.append("build update") } }
        } catch {}

        #expect(dropIn.items == ran.items)
        Self.expectSameMarks(viaRegistry.load(), store.load())
    }

    /// A device `set` to any version (a shipped release or not), over any recorded state, and
    /// the sandbox simulating it, for a registry with random `since` (with or without
    /// releases): their plans agree, before and after a real run; the run executes exactly the
    /// pending migrations; after it, what was pending is applied and nothing else changed; and
    /// a migration without a record is called applied only when its code shipped by the
    /// version the device was set to.
    @Test("a set device and its simulation agree before and after a real run, with random since", arguments: 0..<300)
    func setAndSimulatedDevicesAgreeBeforeAndAfterARun(seed: Int) throws {
        var random = SplitMix(state: UInt64(seed) &* 6_700_417 &+ 3)
        var registry = MigrationRegistry()
        if Bool.random(using: &random) {
            registry.releases = try Set((0..<Int.random(in: 1...5, using: &random)).map { _ in random.version() }).map { try Version($0) }
        }
        for _ in 0..<Int.random(in: 0...12, using: &random) {
            let since = Bool.random(using: &random) ? nil : random.version()
            let version = random.version()
            registry.migrate(toVersion: version, title: version, since: since)
        }
        if Bool.random(using: &random) { registry.onUpdate(title: "hook") }
        let setTo = try Version(random.version())
        let target = try AppTarget(version: random.version())
        let runner = MigrationRunner(registry: registry, target: target)

        let store = InMemoryMigrationStore(state: OneAnswerPerFromTests.recorded(registry, &random))
        try store.update { $0 = registry.device(lastRan: setTo, over: $0) }
        let sandbox = runner.simulate(from: setTo)
        let before = try runner.plan(store: store)
        #expect(OneAnswerPerFromTests.Answer(before) == OneAnswerPerFromTests.Answer(try runner.plan(store: sandbox)), "seed \(seed)")
        for entry in before.entries where entry.status == .applied && before.lastRecord(of: entry.migration) == nil {
            // A duplicate declaration of the same version may be the one that shipped.
            let shipped = registry.migrations.filter { $0.version == entry.migration.version }.compactMap(\.shippedSince)
            #expect(shipped.contains { $0 <= setTo }, "seed \(seed): \(entry.migration.label) applied on a device at \(setTo.text)")
        }

        let report = try runner.run(store: store)
        _ = try runner.run(store: sandbox)
        #expect(report.succeeded, "seed \(seed)")
        #expect(report.steps.compactMap { if case .migration(let m) = $0.subject { m.id } else { nil } } == before.pending.map(\.migration.id))
        // The same statuses; a problem's wording may differ (a replayed sandbox knows from its
        // records, the set store from the version it was set to).
        let after = try runner.plan(store: store)
        #expect(after.entries.map(\.status) == (try runner.plan(store: sandbox)).entries.map(\.status), "seed \(seed)")
        #expect(after.entries.map(\.status) == before.entries.map { $0.status.willRun ? .applied : $0.status }, "seed \(seed)")
    }

    @Test func callOrderDiffersFromVersionOrderAsTheREADMESays() throws {
        // The drop-in runs in call order, like MTMigration: a block called after a higher one
        // ran never runs. The registry runs in version order and warns about the declaration.
        var registry = MigrationRegistry()
        registry.migrate(toVersion: "0.9", title: "later")
        registry.migrate(toVersion: "0.8", title: "earlier")
        let plan = try MigrationPlan(registry: registry, state: .freshInstall, target: AppTarget(version: "1.0"))
        #expect(plan.pending.map(\.migration.declared) == ["0.8", "0.9"])
        #expect(plan.problems.map(\.severity) == [.warning])
        var ran: [String] = []
        let migrator = Migrator(appVersion: "1.0", store: InMemoryMigrationStore())
        migrator.migrateToVersion("0.9") { ran.append("0.9") }
        migrator.migrateToVersion("0.8") { ran.append("0.8") }
        #expect(ran == ["0.9"])
    }
}
