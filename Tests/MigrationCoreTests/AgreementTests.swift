import Testing
@testable import MigrationCore

/// A dry-run, a simulation, a real run and the drop-in API must agree exactly.
@Suite("Agreement")
struct AgreementTests {
    /// A small deterministic generator, so a failure can be replayed from its seed.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func randomVersion(_ random: inout SplitMix) -> String {
        (0..<Int.random(in: 1...3, using: &random)).map { _ in String(Int.random(in: 0...11, using: &random)) }
            .joined(separator: ".")
    }

    @Test("dry-run, simulation, run and drop-in agree", arguments: 0..<200)
    func agree(seed: Int) throws {
        var random = SplitMix(state: UInt64(seed))
        let ran = Recorder<String>()
        var registry = MigrationRegistry()
        let declared = (0..<Int.random(in: 0...25, using: &random)).map { _ in Self.randomVersion(&random) }
        for version in declared {
            registry.migrate(toVersion: version, title: version) { _ in ran.append(version) }
        }
        let from = Bool.random(using: &random) ? nil : try Version(Self.randomVersion(&random))
        let target = try AppTarget(version: Self.randomVersion(&random))
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

    @Test("registry runs and drop-in calls agree on builds, hooks, failures, baselines and wide versions", arguments: 0..<200)
    func agreeOnEverything(seed: Int) throws {
        var random = SplitMix(state: UInt64(seed) &+ 1_000)
        let versions = (0..<Int.random(in: 0...12, using: &random)).map { _ in Self.wideVersion(&random) }
        let builds = (0..<Int.random(in: 0...6, using: &random)).map { _ in String(Int.random(in: 1...20, using: &random)) }
        let failing = Bool.random(using: &random) ? versions.randomElement(using: &random) : nil
        let hooks = Int.random(in: 0...3, using: &random)
        let buildHooks = Int.random(in: 0...2, using: &random)

        let ran = Recorder<String>()
        var registry = MigrationRegistry()
        for version in versions {
            registry.migrate(toVersion: version, title: version) { _ in
                if version == failing { throw Failure() }
                ran.append("v" + version)
            }
        }
        for build in builds { registry.migrate(toBuild: build, title: build) { _ in ran.append("b" + build) } }
        for index in 0..<hooks { registry.onUpdate(title: "hook \(index)") { _ in ran.append("update") } }
        for index in 0..<buildHooks { registry.onBuildUpdate(title: "build hook \(index)") { _ in ran.append("build update") } }

        let fresh = Bool.random(using: &random)
        let from = fresh ? nil : try Version(Self.wideVersion(&random))
        let fromBuild = fresh ? nil : try Version(String(Int.random(in: 1...20, using: &random)))
        let policy: FreshInstallPolicy = fresh && Bool.random(using: &random) ? .baseline : .runAll
        let target = try AppTarget(version: Self.wideVersion(&random), build: String(Int.random(in: 1...20, using: &random)))
        let device = MigrationState.device(at: from, build: fromBuild)

        let runner = MigrationRunner(registry: registry, target: target, policy: policy)
        let viaRegistry = InMemoryMigrationStore(state: device)
        _ = try runner.run(store: viaRegistry)

        // The drop-in, called in run order (version order, each version once), with one update
        // block per track where the registry has hooks: MTMigration fires only the first.
        let dropIn = Recorder<String>()
        let store = InMemoryMigrationStore(state: device)
        let migrator = Migrator(appVersion: target.version.text, appBuild: target.build?.text, store: store, policy: policy)
        let plan = try runner.plan(device)
        do {
            for entry in plan.entries where entry.migration.version != nil && entry.status != .skipped(.duplicate) {
                let migration = entry.migration
                if migration.track == .version {
                    try migrator.migrateToVersion(migration.declared) {
                        if migration.declared == failing { throw Failure() }
                        dropIn.append("v" + migration.declared)
                    }
                } else {
                    migrator.migrateToBuild(migration.declared) { dropIn.append("b" + migration.declared) }
                }
            }
            migrator.applicationUpdateBlock { for _ in 0..<hooks { dropIn.append("update") } }
            migrator.buildNumberUpdateBlock { for _ in 0..<buildHooks { dropIn.append("build update") } }
        } catch {}

        #expect(dropIn.items == ran.items)
        let left = viaRegistry.load(), right = store.load()
        for mark in RecordedMark.allCases {
            #expect(left[mark].flatMap { try? Version($0) } == right[mark].flatMap { try? Version($0) }, "\(mark)")
        }
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
