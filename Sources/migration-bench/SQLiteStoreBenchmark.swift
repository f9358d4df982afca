import Foundation
import MigrationCore
import MigrationSQLite

/// The SQLite store beside the JSON file store, in a fresh install of 1,000 migrations through
/// the drop-in API: the first call (the store opened, its records created, one migration run
/// and recorded) and each later migration's cost.
enum SQLiteStoreBenchmark {
    static func run(count: Int = 1_000, repetitions: Int = 5) throws {
        print("Fresh install of \(count) migrations, drop-in API (median of \(repetitions) installs)")
        print("  store          first call     per later migration")
        let file = try measure(count: count, repetitions: repetitions) { folder in
            FileMigrationStore(url: folder.appendingPathComponent("state.json"))
        }
        let sqlite = try measure(count: count, repetitions: repetitions) { folder in
            SQLiteMigrationStore(path: folder.appendingPathComponent("app.sqlite").path)
        }
        for (name, result) in [("JSON file", file), ("SQLite", sqlite)] {
            print("  \(name.padding(toLength: 14, withPad: " ", startingAt: 0)) \(formatted(result.first).padding(toLength: 14, withPad: " ", startingAt: 0)) \(formatted(result.perMigration))")
        }
        print(String(format: "  SQLite ÷ JSON file: first call %.2f×, per migration %.2f×\n",
                     sqlite.first / file.first, sqlite.perMigration / file.perMigration))
    }

    /// Medians over `repetitions` fresh installs, each in a new folder with a new store.
    private static func measure(
        count: Int, repetitions: Int, store: (URL) -> any MigrationStore
    ) throws -> (first: Double, perMigration: Double) {
        let declared = versions(count)
        let clock = ContinuousClock()
        var firsts: [Double] = [], rests: [Double] = []
        for _ in 0..<repetitions {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("migration-bench-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            var ran = 0
            let first = clock.measure {
                Migrator(appVersion: declared.last!, store: store(folder)).migrateToVersion(declared[0]) { ran += 1 }
            }
            let migrator = Migrator(appVersion: declared.last!, store: store(folder))
            let rest = clock.measure {
                for version in declared.dropFirst() { migrator.migrateToVersion(version) { ran += 1 } }
            }
            precondition(ran == count, "every migration should have run once")
            firsts.append(seconds(first))
            rests.append(seconds(rest) / Double(count - 1))
        }
        return (firsts.sorted()[repetitions / 2], rests.sorted()[repetitions / 2])
    }
}
