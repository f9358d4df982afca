import Testing
@testable import MigrationCore

@Suite("Plan")
struct PlanTests {
    func registry(_ versions: [String], builds: [String] = []) -> MigrationRegistry {
        var registry = MigrationRegistry(appName: "Test")
        for version in versions { registry.migrate(toVersion: version, title: "v\(version)") }
        for build in builds { registry.migrate(toBuild: build, title: "b\(build)") }
        return registry
    }

    func statuses(_ plan: MigrationPlan) -> [String: MigrationStatus] {
        Dictionary(plan.entries.map { ("\($0.migration.track == .version ? "v" : "b")\($0.migration.declared)", $0.status) },
                   uniquingKeysWith: { first, _ in first })
    }

    @Test func statusesFromADeviceAt0_8UpgradingTo1_0() throws {
        let plan = try MigrationPlan(registry: registry(["0.5", "0.9", "0.10", "1.0", "1.1"]),
                                     state: .device(at: Version("0.8")), target: AppTarget(version: "1.0"))
        let status = statuses(plan)
        #expect(status["v0.5"] == .applied)
        #expect(status["v0.9"] == .pending)
        #expect(status["v0.10"] == .pending)
        #expect(status["v1.0"] == .pending)
        #expect(status["v1.1"] == .skipped(.aboveAppVersion))
        #expect(plan.pending.map(\.migration.declared) == ["0.9", "0.10", "1.0"])
        #expect(plan.runPositions == [1: 1, 2: 2, 3: 3])
        #expect(plan.problems.isEmpty)
    }

    @Test func pendingRunInAscendingOrderWhateverTheDeclarationOrder() throws {
        let plan = try MigrationPlan(registry: registry(["1.0", "0.10", "0.9"], builds: ["12", "9"]),
                                     state: .freshInstall, target: AppTarget(version: "1.0", build: "12"))
        #expect(plan.pending.map(\.migration.label) == [
            "version 0.9 \"v0.9\"", "version 0.10 \"v0.10\"", "version 1.0 \"v1.0\"",
            "build 9 \"b9\"", "build 12 \"b12\"",
        ])
    }

    @Test("run order holds for long versions and large components", arguments: [
        ["1.0.0.0.2", "1.0.0.0.1", "1.0.0.0.1.0", "1.2"],
        ["70000", "1.65536", "1.2", "1.2.0"],
    ])
    func runOrderWithLongOrLargeVersions(declared: [String]) throws {
        let plan = try MigrationPlan(registry: registry(declared), state: .freshInstall, target: AppTarget(version: "999999"))
        let expected = try declared.enumerated().sorted { (try Version($0.element), $0.offset) < (try Version($1.element), $1.offset) }
        #expect(plan.entries.map(\.migration.id) == expected.map(\.offset))
        #expect(plan.entries.filter { $0.status == .skipped(.duplicate) }.count == 1)
    }

    @Test func outOfOrderDeclarationIsAWarningAndStillRunsInOrder() throws {
        let plan = try MigrationPlan(registry: registry(["0.9", "1.0", "0.95"]), state: .freshInstall,
                                     target: AppTarget(version: "1.0"))
        try #require(plan.problems.count == 1)
        #expect(plan.problems[0].severity == .warning)
        #expect(plan.problems[0].message.contains("0.95"))
        #expect(plan.pending.map(\.migration.declared) == ["0.9", "0.95", "1.0"])
    }

    @Test func invalidVersionsAreSkippedAndAllListed() throws {
        let plan = try MigrationPlan(registry: registry(["1.0-beta", "0.9", "v2", "1..2"]), state: .freshInstall,
                                     target: AppTarget(version: "1.0"))
        #expect(plan.problems.count == 3)
        #expect(plan.problems.allSatisfy { $0.severity == .error })
        #expect(plan.problems.map(\.migrationID) == [0, 2, 3])
        #expect(statuses(plan)["v1.0-beta"] == .skipped(.invalidVersion))
        #expect(plan.pending.map(\.migration.declared) == ["0.9"])
        #expect(plan.entries.last?.migration.declared == "1..2")
    }

    @Test func duplicateVersionsKeepTheFirstAndReportTheRest() throws {
        let plan = try MigrationPlan(registry: registry(["0.9", "1.0", "1.0.0"]), state: .freshInstall,
                                     target: AppTarget(version: "1.0"))
        #expect(plan.entries.first { $0.migration.id == 2 }?.status == .skipped(.duplicate))
        #expect(plan.pending.map(\.migration.id) == [0, 1])
        try #require(plan.problems.count == 1)
        #expect(plan.problems[0].message.contains("duplicates"))
    }

    @Test func neverRanBelowTheMarkIsOutOfOrderWhenHistoryIsComplete() throws {
        var state = MigrationState.freshInstall
        state.lastMigratedVersion = "1.0"
        state.history = [MigrationRecord(subject: .versionMigration, identifier: "1.0", title: "v1.0",
                                         date: .now, duration: 0, outcome: .succeeded)]
        let plan = try MigrationPlan(registry: registry(["0.9", "1.0"]), state: state, target: AppTarget(version: "1.1"))
        #expect(statuses(plan)["v0.9"] == .skipped(.outOfOrder))
        #expect(statuses(plan)["v1.0"] == .applied)
        state.historyIsComplete = false
        let imported = try MigrationPlan(registry: registry(["0.9", "1.0"]), state: state, target: AppTarget(version: "1.1"))
        #expect(statuses(imported)["v0.9"] == .applied)
    }

    @Test func aMigrationThatFailedLastTimeIsFailedAndStillRuns() throws {
        var state = MigrationState.device(at: try Version("0.8"))
        state.history = [MigrationRecord(subject: .versionMigration, identifier: "0.9", title: "v0.9",
                                         date: .now, duration: 0, outcome: .failed, error: "disk full")]
        let plan = try MigrationPlan(registry: registry(["0.9"]), state: state, target: AppTarget(version: "1.0"))
        try #require(plan.entries.count == 1)
        #expect(plan.entries[0].status == .failed)
        #expect(plan.lastRecord(of: plan.entries[0].migration)?.error == "disk full")
        #expect(plan.pending.count == 1)
    }

    @Test func hooksFireWhenTheRecordedAppVersionDiffers() throws {
        var registry = registry([])
        registry.onUpdate(title: "What's New")
        registry.onBuildUpdate(title: "Clear caches")
        let target = try AppTarget(version: "1.0", build: "5")
        let fresh = try MigrationPlan(registry: registry, state: .freshInstall, target: target)
        #expect(fresh.hooks.map(\.fires) == [true, true])
        let same = try MigrationPlan(registry: registry, state: MigrationState(lastAppVersion: "1.0.0", lastAppBuild: "5"), target: target)
        #expect(same.hooks.map(\.fires) == [false, false])
        let newBuild = try MigrationPlan(registry: registry, state: MigrationState(lastAppVersion: "1.0", lastAppBuild: "4"), target: target)
        #expect(newBuild.hooks.map(\.fires) == [false, true])
    }

    @Test func baselinePlanRunsNothingAndFiresNoHooks() throws {
        var registry = registry(["0.9", "1.0", "1.1"])
        registry.onUpdate(title: "hook")
        let plan = try MigrationPlan(registry: registry, state: .freshInstall, target: AppTarget(version: "1.0"), policy: .baseline)
        #expect(plan.isBaseline)
        #expect(plan.pending.isEmpty)
        #expect(plan.hooks.allSatisfy { !$0.fires })
        #expect(!plan.runsAnyBody)
        #expect(statuses(plan)["v1.1"] == .skipped(.aboveAppVersion))
    }

    @Test func aPlanRunsABodyWhenAMigrationIsPendingOrAHookFires() throws {
        var registry = registry(["0.9"])
        registry.onUpdate(title: "What's New")
        let target = try AppTarget(version: "1.0")
        #expect(try MigrationPlan(registry: registry, state: .freshInstall, target: target).runsAnyBody)
        let hookOnly = try MigrationPlan(registry: registry, state: MigrationState(lastMigratedVersion: "0.9", lastAppVersion: "0.9"), target: target)
        #expect(hookOnly.pending.isEmpty && hookOnly.runsAnyBody)
        let upToDate = try MigrationPlan(registry: registry, state: MigrationState(lastMigratedVersion: "0.9", lastAppVersion: "1.0"), target: target)
        #expect(!upToDate.runsAnyBody)
    }

    @Test func aRecordedMarkThatIsNotAVersionIsAnError() {
        #expect(throws: MigrationStateError.self) {
            try MigrationPlan(registry: registry(["1.0"]), state: MigrationState(lastMigratedVersion: "garbage"),
                              target: AppTarget(version: "1.0"))
        }
    }

    @Test func withoutAnAppBuildBuildMigrationsAreAboveTheApp() throws {
        let plan = try MigrationPlan(registry: registry([], builds: ["1"]), state: .freshInstall, target: AppTarget(version: "1.0"))
        try #require(plan.entries.count == 1)
        #expect(plan.entries[0].status == .skipped(.aboveAppVersion))
    }
}
