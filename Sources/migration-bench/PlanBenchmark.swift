import Foundation
import MigrationCore

/// Goal 5: planning n migrations declared in random order, from a device halfway up, best of
/// several runs; time / (n log₂ n) must stay flat from 1,000 to 1,000,000.
enum PlanBenchmark {
    static func run(_ table: Table) throws {
        print("\nMigrationPlan, n declared in random order, device halfway (best of 5; 1,000,000: best of 3)")
        var normalised: [Int: Double] = [:]
        var million = (time: 0.0, sort: 0.0, planBytes: 0, registryBytes: 0)
        var generator = SystemRandomNumberGenerator()
        for count in [1_000, 10_000, 100_000, 1_000_000] {
            let all = versions(count)
            let before = heapBytes()
            var registry = MigrationRegistry(appName: "bench")
            for version in all.shuffled(using: &generator) { registry.migrate(toVersion: version, title: version) }
            let registryBytes = heapBytesKeeping(registry) - before
            let state = MigrationState.device(at: try Version(all[count / 2]))
            let target = try AppTarget(version: all[count - 1])
            let beforePlan = heapBytes()
            let planBytes = heapBytesKeeping(try MigrationPlan(registry: registry, state: state, target: target)) - beforePlan
            let time = best(repetitions: count == 1_000_000 ? 3 : 5) {
                blackHole(try? MigrationPlan(registry: registry, state: state, target: target))
            }
            normalised[count] = time / (Double(count) * log2(Double(count)))
            print("  \(count): \(formatted(time)), \(String(format: "%.2f", normalised[count]! * 1e9)) ns / (n log₂ n)")
            if count == 1_000_000 {
                let keys = (0..<count).map { _ in UInt64.random(in: 0...UInt64.max, using: &generator) }
                let sort = best(repetitions: 3) { blackHole(keys.sorted()) }
                million = (time, sort, planBytes, registryBytes)
            }
        }
        table.ratio("plan, time / (n log₂ n) at 1,000,000: \(String(format: "%.1f ns", normalised[1_000_000]! * 1e9))",
                    normalised[1_000_000]!, baseline: "at 1,000: \(String(format: "%.1f ns", normalised[1_000]! * 1e9))",
                    normalised[1_000]!, atMost: 1.5)
        table.add(Row(figure: "plan of 1,000,000: \(formatted(million.time))", baseline: "sorting 1,000,000 `UInt64`s \(formatted(million.sort))",
                      ratio: million.time / million.sort, target: "≤ 250 ms", met: million.time <= 0.25))
        table.add(Row(figure: "plan of 1,000,000 adds \(million.planBytes / 1_000_000) MB",
                      baseline: "the registry: \(million.registryBytes / 1_000_000) MB (\(million.registryBytes / 1_000_000) B a migration)",
                      ratio: Double(million.planBytes) / Double(max(1, million.registryBytes)), target: "≤ 100 MB",
                      met: million.planBytes <= 100_000_000))
    }

    /// Only this benchmark's thread touches it.
    nonisolated(unsafe) private static var held: Any?

    /// The heap's bytes (see ``heapBytes()``) while `value` is held: by a global, so that the
    /// optimiser cannot move building it past the reading, as it may for a value only a local
    /// keeps.
    private static func heapBytesKeeping(_ value: some Any) -> Int {
        held = value
        defer { held = nil }
        return heapBytes()
    }
}
