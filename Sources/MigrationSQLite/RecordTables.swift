import Foundation
import GRDB
import MigrationCore

/// The two tables a ``SQLiteMigrationStore`` keeps in the app's database: one row of marks per
/// domain, and the history, one row per record in order.
///
/// Tables of these names that exist with other columns belong to someone else: every read
/// and write refuses them, and nothing is changed.
enum RecordTables {
    static let marks = "migration_explorer_marks"
    static let history = "migration_explorer_history"
    /// The migrations' recorded starts (see `MigrationAttempt`): added by this release, so a
    /// database written before it has the other two tables without it.
    static let attempts = "migration_explorer_attempts"

    /// Each table's columns as `PRAGMA table_info` reports them: name, type, not null, key.
    private static let shapes: [String: [Column]] = [
        marks: [
            Column("domain", "TEXT", notNull: true, primaryKey: true),
            Column("lastMigratedVersion", "TEXT"), Column("lastMigratedBuild", "TEXT"),
            Column("lastAppVersion", "TEXT"), Column("lastAppBuild", "TEXT"),
            Column("historyIsComplete", "INTEGER", notNull: true),
        ],
        history: [
            Column("domain", "TEXT", notNull: true, primaryKey: true),
            Column("position", "INTEGER", notNull: true, primaryKey: true),
            Column("subject", "TEXT", notNull: true), Column("identifier", "TEXT"),
            Column("title", "TEXT", notNull: true), Column("date", "REAL", notNull: true),
            Column("duration", "REAL", notNull: true), Column("outcome", "TEXT", notNull: true),
            Column("error", "TEXT"),
        ],
        attempts: [
            Column("domain", "TEXT", notNull: true, primaryKey: true),
            Column("position", "INTEGER", notNull: true, primaryKey: true),
            Column("track", "TEXT", notNull: true), Column("identifier", "TEXT", notNull: true),
            Column("title", "TEXT", notNull: true), Column("appVersion", "TEXT"), Column("appBuild", "TEXT"),
            Column("date", "REAL", notNull: true),
        ],
    ]

    private struct Column: Equatable, CustomStringConvertible {
        let name, type: String
        let notNull, primaryKey: Bool

        init(_ name: String, _ type: String, notNull: Bool = false, primaryKey: Bool = false) {
            (self.name, self.type, self.notNull, self.primaryKey) = (name, type, notNull, primaryKey)
        }

        var description: String { "\(name) \(type)\(notNull ? " NOT NULL" : "")\(primaryKey ? " KEY" : "")" }
    }

    /// Whether the records' tables (the marks and the history) exist, after checking that
    /// any table of ours that does is ours.
    /// - Throws: ``ForeignTable`` for a table of our name with other columns.
    static func exist(in db: Database) throws -> Bool {
        try existing([history, marks], in: db).count == 2
    }

    /// The tables of ours among `tables` (all of them by default) that exist, each checked.
    /// - Throws: ``ForeignTable`` for a table of our name with other columns.
    private static func existing(_ tables: [String] = shapes.keys.sorted(), in db: Database) throws -> Set<String> {
        var found: Set<String> = []
        for table in tables {
            let expected = shapes[table]!
            let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { row in
                Column(row["name"], (row["type"] as String).uppercased(), notNull: row["notnull"] as Int != 0,
                       primaryKey: row["pk"] as Int != 0)
            }
            if columns.isEmpty { continue }
            guard columns == expected else { throw ForeignTable(table: table, columns: columns.map(\.description)) }
            found.insert(table)
        }
        return found
    }

    /// A table of our name that another program made.
    struct ForeignTable: Error, CustomStringConvertible {
        let table: String
        let columns: [String]

        var description: String {
            "its table \(table) has other columns (\(columns.joined(separator: ", "))) than this package writes; it belongs to something else"
        }
    }

    /// Creates the tables (after checking any existing ones).
    static func create(in db: Database) throws {
        guard try existing(in: db).count < shapes.count else { return }
        for (table, columns) in shapes.sorted(by: { $0.key < $1.key }) {
            let keys = columns.filter(\.primaryKey).map(\.name).joined(separator: ", ")
            let definitions = columns.map { "\($0.name) \($0.type)\($0.notNull ? " NOT NULL" : "")" }
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS \(table) (\(definitions.joined(separator: ", ")), PRIMARY KEY (\(keys)))")
        }
    }

    // MARK: Reading and writing one domain

    /// The marks of `domain`, and its history when `withHistory`; a fresh install when
    /// nothing is recorded.
    static func read(_ domain: String, withHistory: Bool, in db: Database) throws -> MigrationState {
        guard try exist(in: db) else { return .freshInstall }
        let history = withHistory ? try historyRows(domain, in: db).map(record) : []
        var state: MigrationState
        if let row = try Row.fetchOne(db, sql: "SELECT * FROM \(marks) WHERE domain = ?", arguments: [domain]) {
            state = MigrationState(
                lastMigratedVersion: row["lastMigratedVersion"], lastMigratedBuild: row["lastMigratedBuild"],
                lastAppVersion: row["lastAppVersion"], lastAppBuild: row["lastAppBuild"],
                history: history, historyIsComplete: row["historyIsComplete"] as Int != 0)
        } else {
            state = withHistory && !history.isEmpty ? MigrationState(history: history) : .freshInstall
        }
        if withHistory { state.attempts = try readAttempts(of: domain, in: db) }
        return state
    }

    /// The attempts of `domain`, oldest first; none when the table is not there yet.
    static func readAttempts(of domain: String, in db: Database) throws -> [MigrationAttempt] {
        guard try !existing([attempts], in: db).isEmpty else { return [] }
        return try Row.fetchAll(
            db, sql: "SELECT track, identifier, title, appVersion, appBuild, date FROM \(attempts) WHERE domain = ? ORDER BY position",
            arguments: [domain]
        ).map { row in
            guard let track = MigrationTrack(rawValue: row["track"]) else {
                throw UnreadableRecord(values: row.databaseValues.map(\.description))
            }
            return MigrationAttempt(track: track, identifier: row["identifier"], title: row["title"], appVersion: row["appVersion"],
                                    appBuild: row["appBuild"], date: Date(timeIntervalSince1970: row["date"]))
        }
    }

    /// Replaces the attempts of `domain`.
    static func writeAttempts(_ list: [MigrationAttempt], of domain: String, in db: Database) throws {
        try create(in: db)
        try db.execute(sql: "DELETE FROM \(attempts) WHERE domain = ?", arguments: [domain])
        let insert = try db.cachedStatement(
            sql: "INSERT INTO \(attempts) (domain, position, track, identifier, title, appVersion, appBuild, date) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
        for (position, attempt) in list.enumerated() {
            try insert.execute(arguments: [domain, position, attempt.track.rawValue, attempt.identifier, attempt.title,
                                           attempt.appVersion, attempt.appBuild, attempt.date.timeIntervalSince1970])
        }
    }

    /// Writes `state` as the records of `domain`: the marks replaced, the history appended to
    /// where it only grew, rewritten from the first difference otherwise.
    static func write(_ state: MigrationState, of domain: String, in db: Database) throws {
        try writeMarks(state, of: domain, in: db)
        if try state.attempts != readAttempts(of: domain, in: db) { try writeAttempts(state.attempts, of: domain, in: db) }
        let stored = try historyRows(domain, in: db).map(\.values)
        let wanted = state.history.map(values)
        let kept = zip(stored, wanted).prefix { $0 == $1 }.count
        try db.execute(sql: "DELETE FROM \(history) WHERE domain = ? AND position >= ?", arguments: [domain, kept])
        try insert(wanted[kept...], of: domain, from: kept, in: db)
    }

    /// Writes the marks of `state` and appends `records` to the history of `domain`, without
    /// reading the history: a step costs the same however long it is.
    static func writeMarks(_ state: MigrationState, of domain: String, appending records: [MigrationRecord], in db: Database) throws {
        try writeMarks(state, of: domain, in: db)
        let next = try Int.fetchOne(db, sql: "SELECT MAX(position) + 1 FROM \(history) WHERE domain = ?", arguments: [domain]) ?? 0
        try insert(records.map(values)[...], of: domain, from: next, in: db)
    }

    private static func writeMarks(_ state: MigrationState, of domain: String, in db: Database) throws {
        try create(in: db)
        try db.execute(
            sql: """
            INSERT OR REPLACE INTO \(marks) (domain, lastMigratedVersion, lastMigratedBuild, lastAppVersion, lastAppBuild, historyIsComplete)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
            arguments: [domain, state.lastMigratedVersion, state.lastMigratedBuild, state.lastAppVersion, state.lastAppBuild,
                        state.historyIsComplete ? 1 : 0])
    }

    /// Inserts history rows of `domain`, the first at `position`.
    private static func insert(_ rows: ArraySlice<[DatabaseValue]>, of domain: String, from position: Int, in db: Database) throws {
        let insert = try db.cachedStatement(
            sql: "INSERT INTO \(history) (domain, position, subject, identifier, title, date, duration, outcome, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
        for (offset, row) in rows.enumerated() {
            try insert.execute(arguments: StatementArguments([domain, position + offset] + row))
        }
    }

    /// Every domain with records, sorted.
    static func domains(in db: Database) throws -> [String] {
        guard try exist(in: db) else { return [] }
        return try String.fetchAll(db, sql: "SELECT domain FROM \(marks) UNION SELECT domain FROM \(history) ORDER BY domain")
    }

    private struct HistoryRow {
        let values: [DatabaseValue]
    }

    private static func historyRows(_ domain: String, in db: Database) throws -> [HistoryRow] {
        try Row.fetchAll(
            db, sql: "SELECT subject, identifier, title, date, duration, outcome, error FROM \(history) WHERE domain = ? ORDER BY position",
            arguments: [domain]
        ).map { row in HistoryRow(values: row.databaseValues.map { $0 }) }
    }

    /// A record as the columns `subject, identifier, title, date, duration, outcome, error`.
    private static func values(_ record: MigrationRecord) -> [DatabaseValue] {
        [record.subject.rawValue.databaseValue, record.identifier.databaseValue, record.title.databaseValue,
         record.date.timeIntervalSince1970.databaseValue, record.duration.databaseValue, record.outcome.rawValue.databaseValue,
         record.error.databaseValue]
    }

    private static func record(_ row: HistoryRow) throws -> MigrationRecord {
        let values = row.values
        func text(_ index: Int) -> String? { String.fromDatabaseValue(values[index]) }
        func number(_ index: Int) -> Double? { Double.fromDatabaseValue(values[index]) }
        guard let subject = text(0).flatMap(MigrationRecord.Subject.init(rawValue:)),
              let outcome = text(5).flatMap(MigrationRecord.Outcome.init(rawValue:)),
              let title = text(2), let date = number(3), let duration = number(4) else {
            throw UnreadableRecord(values: values.map(\.description))
        }
        return MigrationRecord(subject: subject, identifier: text(1), title: title, date: Date(timeIntervalSince1970: date),
                               duration: duration, outcome: outcome, error: text(6))
    }

    /// A history row with a value this package does not write.
    struct UnreadableRecord: Error, CustomStringConvertible {
        let values: [String]

        var description: String { "the history row (\(values.joined(separator: ", "))) is not one this package writes" }
    }
}
