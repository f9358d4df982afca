import Testing
import MigrationCore

/// A sandbox simulates only the records: a run whose bodies act for real asks first, and
/// both front ends ask this one rule.
@Suite("Sandbox consent")
struct SandboxConsentTests {
    func plan(from: String?, policy: FreshInstallPolicy = .runAll) throws -> MigrationPlan {
        var registry = MigrationRegistry(appName: "Notes")
        registry.migrate(toVersion: "0.9", title: "GUIDs") { _ in }
        let state = MigrationState.device(at: try from.map { try Version($0) })
        return try MigrationPlan(registry: registry, state: state, target: AppTarget(version: "1.0"), policy: policy)
    }

    @Test func aRunOfBodiesThatActForRealNeedsConsent() throws {
        #expect(MigrationRule.sandboxRunNeedsConsent(try plan(from: "0.8"), bodiesActForReal: true))
    }

    @Test func bodiesThatOnlyTouchTheRecordsNeedNone() throws {
        #expect(!MigrationRule.sandboxRunNeedsConsent(try plan(from: "0.8"), bodiesActForReal: false))
    }

    @Test func aRunThatRunsNoBodyNeedsNone() throws {
        // Up to date: nothing pending, and no hook fires.
        let upToDate = try plan(from: "1.0")
        #expect(!upToDate.runsAnyBody)
        #expect(!MigrationRule.sandboxRunNeedsConsent(upToDate, bodiesActForReal: true))
        // A baselined fresh install only records.
        #expect(!MigrationRule.sandboxRunNeedsConsent(try plan(from: nil, policy: .baseline), bodiesActForReal: true))
    }

    @Test func anUnknownPlanNeedsConsent() {
        #expect(MigrationRule.sandboxRunNeedsConsent(nil, bodiesActForReal: true))
        #expect(!MigrationRule.sandboxRunNeedsConsent(nil, bodiesActForReal: false))
    }
}
