import Foundation
import MigrationCore
import MigrationSQLite

/// The SQLite store beside the JSON file store, in a fresh install of 1,000 migrations through
/// the drop-in API: the first call (the store opened, its records created, one migration run
/// and recorded) and each later migration's cost.
enum SQLiteStoreBenchmark {
    static func run(_ table: Table) throws {
        let count = 1_000, repetitions = 5
        print("Fresh install of \(count) migrations, drop-in API, SQLite beside a JSON file (median of \(repetitions) installs)")
        let file = try measure(count: count, repetitions: repetitions) { folder in
            FileMigrationStore(url: folder.appendingPathComponent("state.json"))
        }
        let sqlite = try measure(count: count, repetitions: repetitions) { folder in
            SQLiteMigrationStore(path: folder.appendingPathComponent("app.sqlite").path)
        }
        table.add(Row(figure: "SQLite store, first call of a fresh install: \(formatted(sqlite.first))",
                      baseline: "JSON file store \(formatted(file.first))", ratio: sqlite.first / file.first,
                      target: "reported", met: nil))
        table.add(Row(figure: "SQLite store, each later migration of \(count): \(formatted(sqlite.perMigration))",
                      baseline: "JSON file store \(formatted(file.perMigration))", ratio: sqlite.perMigration / file.perMigration,
                      target: "reported", met: nil))
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
