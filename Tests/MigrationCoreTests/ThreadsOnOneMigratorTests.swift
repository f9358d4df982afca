import Foundation
import MigrationTestSupport
import Testing
@testable import MigrationCore

/// Many threads (or tasks) on one migrator, released at once, round after round in one process,
/// on each store: every block runs exactly once per round (`Scripts/thread-race` runs 1,000).
@Suite("Threads on one migrator")
struct ThreadsOnOneMigratorTests {
    let race = ThreadRace()

    /// swift-corelibs-foundation's `UserDefaults` lost a value set on one thread to a read on
    /// another, so the thread that had just recorded a block read no mark and ran it again.
    @Test func threadsOnOneMigratorOverUserDefaultsRunEachBlockOnce() async throws {
        let failures = try await race.roundsRunningABlockTwice { _ in
            let suite = "migration-threads-\(UUID().uuidString)"
            let defaults = UserDefaults(suiteName: suite)!
            return (UserDefaultsMigrationStore(defaults: defaults), { defaults.removePersistentDomain(forName: suite) })
        }
        #expect(failures.isEmpty, "\(failures.count) of \(race.rounds) rounds: \(failures.prefix(3))")
    }

    @Test func threadsOnOneMigratorOverASuiteNameRunEachBlockOnce() async throws {
        let failures = try await race.roundsRunningABlockTwice { _ in
            let suite = "migration-threads-\(UUID().uuidString)"
            return (UserDefaultsMigrationStore(suiteName: suite), { UserDefaults(suiteName: suite)?.removePersistentDomain(forName: suite) })
        }
        #expect(failures.isEmpty, "\(failures.count) of \(race.rounds) rounds: \(failures.prefix(3))")
    }

    @Test func threadsOnOneMigratorOverAFileRunEachBlockOnce() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let failures = try await race.roundsRunningABlockTwice { round in
            (FileMigrationStore(url: folder.appendingPathComponent("state-\(round).json")), {})
        }
        #expect(failures.isEmpty, "\(failures.count) of \(race.rounds) rounds: \(failures.prefix(3))")
    }

    @Test func threadsOnOneMigratorInMemoryRunEachBlockOnce() async throws {
        let failures = try await race.roundsRunningABlockTwice { _ in (InMemoryMigrationStore(), {}) }
        #expect(failures.isEmpty, "\(failures.count) of \(race.rounds) rounds: \(failures.prefix(3))")
    }

    @Test func tasksOnOneMigratorOverUserDefaultsRunEachBlockOnce() async {
        let failures = await race.roundsRunningABlockTwiceAsync { _ in
            let suite = "migration-tasks-\(UUID().uuidString)"
            let defaults = UserDefaults(suiteName: suite)!
            return (UserDefaultsMigrationStore(defaults: defaults), { defaults.removePersistentDomain(forName: suite) })
        }
        #expect(failures.isEmpty, "\(failures.count) of \(race.asyncRounds) rounds: \(failures.prefix(3))")
    }

    @Test func tasksOnOneMigratorOverAFileRunEachBlockOnce() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let failures = await race.roundsRunningABlockTwiceAsync { round in
            (FileMigrationStore(url: folder.appendingPathComponent("state-\(round).json")), {})
        }
        #expect(failures.isEmpty, "\(failures.count) of \(race.asyncRounds) rounds: \(failures.prefix(3))")
    }
}
