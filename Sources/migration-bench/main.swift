import Foundation
import MigrationCore

// Benchmarks for the drop-in API, planning and the terminal UI.
// Run with: swift run -c release migration-bench

/// Versions 0.0.1 … in ascending order.
func versions(_ count: Int) -> [String] {
    (0..<count).map { "\($0 / 10_000).\($0 / 100 % 100).\($0 % 100)" }
}

print("Migration Explorer benchmarks (release build)")
// First, so that its peak memory is not the planning benchmarks'.
try TerminalUIBenchmark.run()
print("")
try SQLiteStoreBenchmark.run()

// 1. Launch-time cost of migrateToVersion when there is nothing to do, 1,000 declared.
let declared = versions(1_000)
let appVersion = declared.last!
let suite = "migration-bench-\(ProcessInfo.processInfo.processIdentifier)"
let defaults = UserDefaults(suiteName: suite)!
defer { defaults.removePersistentDomain(forName: suite) }
defaults.set(appVersion, forKey: "MTMigration.lastMigrationVersion")
defaults.set(appVersion, forKey: "MTMigration.lastAppVersion")

let baseline = MTMigrationBaseline(defaults: defaults, appVersion: appVersion)
let migrator = Migrator(appVersion: appVersion, store: UserDefaultsMigrationStore(defaults: defaults))
migrator.migrateToVersion(declared[0]) {}  // first call loads the record, as a launch would

var executed = 0
let baselineTime = median {
    for version in declared { baseline.migrateToVersion(version) { executed += 1 } }
}
let migratorTime = median {
    for version in declared { migrator.migrateToVersion(version) { executed += 1 } }
}
precondition(executed == 0, "nothing should have run")
let perCallBaseline = baselineTime / Double(declared.count)
let perCallMigrator = migratorTime / Double(declared.count)

print("migrateToVersion, nothing to do, \(declared.count) declared (per call, median of 7 runs)")
print("  MTMigration-style baseline (UserDefaults read + .numeric compare)  \(formatted(perCallBaseline))")
print("  Migrator (UserDefaultsMigrationStore)                              \(formatted(perCallMigrator))")
print(String(format: "  speed-up                                                           %.1f×\n", perCallBaseline / perCallMigrator))

// 2. Planning n migrations declared in shuffled order, from a device halfway up to the top.
print("MigrationPlan, n migrations declared in random order, device halfway (median of 7 runs)")
print("  n          time        time / (n log2 n)")
var generator = SystemRandomNumberGenerator()
for count in [1_000, 10_000, 100_000] {
    var registry = MigrationRegistry(appName: "bench")
    for version in versions(count).shuffled(using: &generator) { registry.migrate(toVersion: version, title: version) }
    let all = versions(count)
    let state = MigrationState.device(at: try Version(all[count / 2]))
    let target = try AppTarget(version: all[count - 1])
    let time = median { blackHole(try? MigrationPlan(registry: registry, state: state, target: target)) }
    let normalised = time / (Double(count) * log2(Double(count))) * 1e9
    print("  \(String(count).padding(toLength: 10, withPad: " ", startingAt: 0)) \(formatted(time).padding(toLength: 11, withPad: " ", startingAt: 0)) \(String(format: "%.2f ns", normalised))")
}
