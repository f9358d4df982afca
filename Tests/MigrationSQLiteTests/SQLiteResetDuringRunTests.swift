import Foundation
import MigrationCore
import MigrationSQLite
import MigrationTestSupport
import Testing

/// A registry run and a reset on one SQLite database, on two threads released at once, round
/// after round in one process: the database always ends as one serial order of the two leaves
/// it (the run then the reset, or the reset then the run), never with the reset between two
/// steps. `MIGRATION_RACE_ROUNDS` sets the rounds (60 by default).
@Suite(.onThreadOfItsOwn) struct SQLiteResetDuringRunTests {
    let rounds = ThreadRace().rounds

    /// Six migrations, each writing a row of the database in its step's transaction.
    private var registry: MigrationRegistry {
        var registry = MigrationRegistry(appName: "Notes")
        for index in 1...6 {
            registry.migrate(toVersion: "0.\(index)", title: "m\(index)", database: { db, _ in
                try db.execute(sql: "CREATE TABLE IF NOT EXISTS step (name TEXT NOT NULL)")
                try db.execute(sql: "INSERT INTO step (name) VALUES (?)", arguments: ["0.\(index)"])
            })
        }
        return registry
    }

    /// What the store records, without dates: the marks and the history's subjects in order.
    private func outcome(_ store: SQLiteMigrationStore) throws -> String {
        let state = try store.load()
        let history = state.history.map { $0.subject == .reset ? "reset" : $0.identifier ?? $0.title }
        return "last \(state.lastMigratedVersion ?? "none"), app \(state.lastAppVersion ?? "none"); \(history.joined(separator: " "))"
    }

    private func run(_ store: SQLiteMigrationStore) throws {
        _ = try MigrationRunner(registry: registry, target: try AppTarget(version: "1.0")).run(store: store)
    }

    private func reset(_ store: SQLiteMigrationStore) {
        Migrator(appVersion: "1.0", store: store).reset()
    }

    @Test func aResetRacingARunOnOneDatabaseEndsAsOneSerialOrderOfTheTwo() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-reset-race-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let resetFirst = SQLiteMigrationStore(path: folder.appendingPathComponent("reset-first.sqlite").path)
        reset(resetFirst)
        try run(resetFirst)
        let runFirst = SQLiteMigrationStore(path: folder.appendingPathComponent("run-first.sqlite").path)
        try run(runFirst)
        reset(runFirst)
        let serial = [try outcome(resetFirst), try outcome(runFirst)]

        var neither: [String] = []
        var orders = [0, 0]
        // At least `rounds`, and on until both orders came up (a loaded machine may run many
        // rounds in one order), up to ten times as many.
        var round = 0
        while round < rounds || (orders.contains(0) && round < rounds * 10) {
            defer { round += 1 }
            let store = SQLiteMigrationStore(path: folder.appendingPathComponent("round-\(round).sqlite").path)
            let failure = Locked<String?>(nil)
            let turn = Locked(0)
            releaseAtOnce(2) {
                if turn.withLock({ $0 += 1; return $0 }) == 1 {
                    do { try run(store) } catch { failure.withLock { $0 = "the run threw \(error)" } }
                } else {
                    reset(store)
                }
            }
            let ended = try failure.value ?? outcome(store)
            if let order = serial.firstIndex(of: ended) { orders[order] += 1 } else { neither.append("round \(round): \(ended)") }
        }
        #expect(neither.isEmpty, "\(neither.count) of \(round) rounds in no serial order (\(serial)): \(neither.prefix(3))")
        // Both orders came up: the two threads did race.
        #expect(orders[0] > 0 && orders[1] > 0, "reset then run \(orders[0]), run then reset \(orders[1]) of \(round)")
    }
}
