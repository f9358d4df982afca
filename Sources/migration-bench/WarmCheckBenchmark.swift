import Foundation
import MigrationCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Goal 1: `migrateToVersion` with nothing to do, 1,000 declared, per call, against the floor:
/// parsing the same string in place and comparing it with a cached parsed mark behind a lock.
enum WarmCheckBenchmark {
    /// The floor: the least a correct check can do.
    final class Floor: @unchecked Sendable {
        private let lock = NSLock()
        private let mark: Version
        private let app: Version

        init(mark: Version, app: Version) {
            self.mark = mark
            self.app = app
        }

        @inline(never)
        func isDue(_ text: String) -> Bool {
            guard let version = try? Version(text) else { return false }
            lock.lock()
            let last = mark
            lock.unlock()
            return version > last && version <= app
        }
    }

    static func run(_ table: Table) throws {
        let declared = versions(1_000)
        let appVersion = declared.last!
        let suite = "migration-bench-warm-\(ProcessInfo.processInfo.processIdentifier)"
        let defaults = UserDefaults(suiteName: suite)!
        defer { defaults.removePersistentDomain(forName: suite) }
        defaults.set(appVersion, forKey: "MTMigration.lastMigrationVersion")
        defaults.set(appVersion, forKey: "MTMigration.lastAppVersion")
        let folder = temporaryFolder("warm")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = FileMigrationStore(url: folder.appendingPathComponent("state.json"))
        try file.save(MigrationState(lastMigratedVersion: appVersion, lastAppVersion: appVersion))

        let floor = Floor(mark: try Version(appVersion), app: try Version(appVersion))
        let mtMigration = MTMigrationBaseline(defaults: defaults, appVersion: appVersion)
        let overDefaults = Migrator(appVersion: appVersion, store: UserDefaultsMigrationStore(defaults: defaults))
        let inMemory = Migrator(appVersion: appVersion, store: InMemoryMigrationStore(state: .device(at: try Version(appVersion))))
        let overFile = Migrator(appVersion: appVersion, store: file)
        Migration.shared = overDefaults
        var ran = 0
        let repeats = 20
        func loop(_ call: @escaping (String) -> Void) -> () -> Void {
            { for _ in 0..<repeats { for version in declared { call(version) } } }
        }
        let path = file.fileURL.path
        let times = alternating([
            loop { if floor.isDue($0) { ran += 1 } },
            loop { overDefaults.migrateToVersion($0) { ran += 1 } },
            loop { inMemory.migrateToVersion($0) { ran += 1 } },
            loop { Migration.migrateToVersion($0) { ran += 1 } },
            loop { overFile.migrateToVersion($0) { ran += 1 } },
            loop { var info = stat(); blackHole(stat(path, &info)); if floor.isDue($0) { ran += 1 } },
            loop { mtMigration.migrateToVersion($0) { ran += 1 } },
        ]).map { $0 / Double(repeats * declared.count) }
        precondition(ran == 0, "nothing should have run")
        let floorName = "floor (parse + compare with a cached mark behind a lock) \(formatted(times[0]))"
        print("\nWarm check, nothing to do, 1,000 declared, per call")
        table.ratio("warm check, Migrator over UserDefaults: \(formatted(times[1]))", times[1], baseline: floorName, times[0], atMost: 1.5)
        table.ratio("warm check, Migrator in memory: \(formatted(times[2]))", times[2], baseline: floorName, times[0], atMost: 1.5)
        table.ratio("warm check, `Migration` facade: \(formatted(times[3]))", times[3], baseline: floorName, times[0], atMost: 1.5)
        table.add(Row(figure: "warm check, Migrator over a file (one `stat` a call): \(formatted(times[4]))",
                      baseline: "floor + one `stat` \(formatted(times[5]))", ratio: times[4] / times[5], target: "reported", met: nil))
        table.ratio("warm check, Migrator over UserDefaults: \(formatted(times[1]))", times[1],
                    baseline: "MTMigration (`object(forKey:)` + `.numeric`) \(formatted(times[6]))", times[6], atMost: 1)
    }
}
