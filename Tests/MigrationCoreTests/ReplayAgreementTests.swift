import Foundation
import Testing
@testable import MigrationCore
import MigrationTestSupport

/// The one-pass replay of the releases records what planning and running each release's code
/// in turn records (the definition: each release plans the migrations its code contains, by
/// the usual rule, duplicates counted within that code), on random registries with
/// duplicates, `since`, invalid versions and releases out of order.
@Suite("Replay agreement")
struct ReplayAgreementTests {
    /// The releases replayed by the definition: a plan of each release's code, run.
    static func replayedByPlans(_ registry: MigrationRegistry, through last: Version) throws -> [String] {
        var state = MigrationState.freshInstall
        for release in Set(registry.releases).sorted() where release <= last {
            var shipped = MigrationRegistry()
            for migration in registry.migrations where migration.track == .version {
                guard let since = migration.shippedSince, since <= release else { continue }
                shipped.migrate(toVersion: migration.declared, title: migration.title, since: migration.sinceDeclared)
            }
            let plan = try MigrationPlan(registry: shipped, state: state, target: AppTarget(version: release))
            for entry in plan.pending {
                MigrationRule.record(.migration(.version, try #require(entry.migration.version)), title: entry.migration.title,
                                     failure: nil, duration: 0, app: release, in: &state)
            }
        }
        return state.history.map { "\($0.identifier ?? "") \($0.title)" } + [state.lastMigratedVersion ?? "no mark"]
    }

    @Test(arguments: 0..<200) func theOnePassReplayRecordsWhatAPlanOfEachReleaseRuns(seed: Int) throws {
        var random = SplitMix(state: UInt64(seed) &* 7_919 &+ 3)
        var registry = MigrationRegistry()
        let releaseTexts = (0..<Int.random(in: 1...8, using: &random)).map { _ in random.version() }
        registry.releases = try releaseTexts.map { try Version($0) }
        for index in 0..<Int.random(in: 0...20, using: &random) {
            let since = Int.random(in: 0..<4, using: &random) == 0 ? releaseTexts.randomElement(using: &random)
                : Int.random(in: 0..<10, using: &random) == 0 ? "soon" : nil
            let version = Int.random(in: 0..<12, using: &random) == 0 ? "\(index)-beta" : random.version()
            registry.migrate(toVersion: version, title: "m\(index)", since: since)
        }
        for release in Set(registry.releases) {
            let replayed = MigrationRule.replay(registry, through: release, build: nil)
            #expect(replayed.history.map { "\($0.identifier ?? "") \($0.title)" } + [replayed.lastMigratedVersion ?? "no mark"]
                == (try Self.replayedByPlans(registry, through: release)), "seed \(seed), through \(release.text)")
        }
    }

}
