import Testing
@testable import MigrationCore
import MigrationTestSupport

/// Run order comes from packed keys sorted by radix where versions fit, from ``Version``
/// comparison where they don't: both must give the order of `(version, declaration)`.
@Suite("Run order")
struct RunOrderTests {
    @Test("radix sort orders by key, equal keys as given", arguments: [0, 1, 2, 3, 255, 256, 1_000, 20_000])
    func radixSortMatchesAComparisonSort(count: Int) {
        var random = SplitMix(state: UInt64(count))
        // Keys that differ in every byte, with many repeats so that stability shows.
        let pool = (0..<max(1, count / 4)).map { _ in UInt64.random(in: 0...UInt64.max, using: &random) >> (8 * UInt64.random(in: 0...7, using: &random)) }
        let keyed = (0..<count).map { (key: pool.randomElement(using: &random)!, position: $0) }
        var sorted = keyed
        RunOrder.radixSort(&sorted)
        let expected = keyed.sorted { ($0.key, $0.position) < ($1.key, $1.position) }
        #expect(sorted.map(\.key) == expected.map(\.key))
        #expect(sorted.map(\.position) == expected.map(\.position))
    }

    /// Versions of up to four components, each anywhere in 0…65,535 (so every byte of the
    /// packed key varies), duplicates included, on both tracks; then the same with versions
    /// that do not fit a key: a component of 65,536 or more, five components, a huge build.
    @Test("plans order like (version, declaration)", arguments: [
        (seed: 1, wide: nil), (seed: 2, wide: "1.65536"), (seed: 3, wide: "1.2.3.4.5"),
        (seed: 4, wide: "18446744073709551615"), (seed: 5, wide: "0.0.0.0.0.1"),
    ] as [(seed: UInt64, wide: String?)])
    func plansOrderLikeVersionThenDeclaration(seed: UInt64, wide: String?) throws {
        var random = SplitMix(state: seed)
        func component() -> Int {
            Bool.random(using: &random) ? Int.random(in: 0...3, using: &random) : Int.random(in: 0...65_535, using: &random)
        }
        var pool = (0..<300).map { _ in (0..<Int.random(in: 1...4, using: &random)).map { _ in String(component()) }.joined(separator: ".") }
        if let wide { pool.append(wide) }
        var registry = MigrationRegistry()
        var declared: [(track: MigrationTrack, version: Version, id: Int)] = []
        for id in 0..<2_000 {
            let text = pool.randomElement(using: &random)!
            let track: MigrationTrack = Bool.random(using: &random) ? .version : .build
            if track == .version { registry.migrate(toVersion: text, title: text) } else { registry.migrate(toBuild: text, title: text) }
            declared.append((track, try Version(text), id))
        }
        let plan = try MigrationPlan(registry: registry, state: .freshInstall,
                                     target: try AppTarget(version: "18446744073709551615", build: "18446744073709551615"))
        let expected = declared.sorted { ($0.track == .version ? 0 : 1, $0.version, $0.id) < ($1.track == .version ? 0 : 1, $1.version, $1.id) }
        #expect(plan.entries.map(\.migration.id) == expected.map(\.id))
        var firsts: [String: Int] = [:]
        for entry in expected { firsts["\(entry.track)-\(entry.version.components)"] = firsts["\(entry.track)-\(entry.version.components)"] ?? entry.id }
        let duplicates = expected.filter { firsts["\($0.track)-\($0.version.components)"] != $0.id }.map(\.id)
        #expect(plan.entries.filter { $0.status == .skipped(.duplicate) }.map(\.migration.id) == duplicates)
        #expect(plan.problems.filter { if case .duplicate = $0.kind { true } else { false } }.count == duplicates.count)
    }
}
