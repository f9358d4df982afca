import Foundation
import Testing
@testable import MigrationCore

/// A body sees both where its track was (`from`, the migration before it, as MTMigration's
/// bodies do) and where the device's upgrade started (`upgradingFrom`).
@Suite("Upgrading from")
struct UpgradingFromTests {
    @Test(arguments: [false, true])
    func eachStepSeesThePreviousMarkAndTheVersionTheDeviceUpgradedFrom(asynchronously: Bool) async throws {
        let seen = Recorder<String>()
        var registry = MigrationRegistry(appName: "Test")
        for version in ["0.9", "1.0"] {
            registry.migrate(toVersion: version, title: "v\(version)") { context in
                seen.append("\(version): from \(context.from ?? "-") upgrading from \(context.upgradingFrom ?? "-") to \(context.to)")
            }
        }
        registry.onUpdate(title: "update") { context in
            seen.append("update: from \(context.from ?? "-") upgrading from \(context.upgradingFrom ?? "-")")
        }
        let runner = MigrationRunner(registry: registry, target: try AppTarget(version: "1.0"))
        let store = runner.simulate(from: try Version("0.8"))
        let report = asynchronously ? try await runner.run(store: store) : try Self.runSynchronously(runner, on: store)
        #expect(report.succeeded)
        #expect(seen.items == [
            "0.9: from 0.8 upgrading from 0.8 to 1.0",
            "1.0: from 0.9 upgrading from 0.8 to 1.0",
            "update: from 0.8 upgrading from 0.8",
        ])
    }

    /// The synchronous run, which an async test would not pick by itself.
    static func runSynchronously(_ runner: MigrationRunner, on store: any MigrationStore) throws -> RunReport {
        try runner.run(store: store)
    }

    @Test func aFreshInstallUpgradesFromNothing() throws {
        let seen = Recorder<String?>()
        var registry = MigrationRegistry(appName: "Test")
        registry.migrate(toVersion: "1.0", title: "v1") { context in seen.append(context.upgradingFrom) }
        let runner = MigrationRunner(registry: registry, target: try AppTarget(version: "1.0"))
        #expect(try runner.run(store: InMemoryMigrationStore()).succeeded)
        #expect(seen.items == [nil])
    }
}
