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
}
