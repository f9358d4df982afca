import Foundation
import Testing
@testable import MigrationCore

/// The upgrade matrix of an app with thousands of releases takes time in proportion to its
/// releases, not to their square: the device at each release is replayed once, not from the
/// first release again for each row.
@Suite("Matrix growth")
struct MatrixGrowthTests {
    /// `releases` releases 0.1 … and ten migrations among them, one of them added late.
    static func registry(releases: Int) throws -> MigrationRegistry {
        var registry = MigrationRegistry(appName: "Many releases")
        registry.releases = try (1...releases).map { try Version("0.\($0)") }
        for step in 1...10 {
            let version = "0.\(step * releases / 10)"
            registry.migrate(toVersion: version, title: version, since: step == 3 ? "0.\(releases)" : nil)
        }
        return registry
    }

    @Test func aRowOfTheMatrixIsTheDeviceThatLastRanItsRelease() throws {
        let registry = try Self.registry(releases: 50)
        let target = try AppTarget(version: "1.0")
        let matrix = try UpgradeMatrix(registry: registry, target: target)
        for row in matrix.rows {
            let device = registry.device(lastRan: row.from).state
            let plan = try MigrationPlan(registry: registry, state: device, target: target)
            #expect(row.plan.entries.map(\.status) == plan.entries.map(\.status), "from \(row.from?.text ?? "a fresh install")")
            #expect(row.plan.state.lastMigratedVersion == device.lastMigratedVersion)
            #expect(row.plan.state.lastAppVersion == device.lastAppVersion)
        }
        #expect(matrix.rows.contains { !$0.outOfOrder.isEmpty })
    }
}
