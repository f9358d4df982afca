import Foundation
import MigrationCore
import PostgresNIO

/// The two tables a ``PostgresMigrationStore`` keeps in its schema: `marks`, one row per
/// domain, and `history`, one row per record in order, each with the host and process that
/// wrote it. Created by the first write, under an advisory lock of the schema, so that a fleet
/// starting at once creates them once.
struct RecordTables: Sendable {
    let schema: String
    let domain: String

    /// The schema as an SQL identifier: `"migration_explorer"`.
    private var quoted: String { "\"" + schema.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
    var marks: String { quoted + ".marks" }
    var history: String { quoted + ".history" }
    /// The migrations' recorded starts (see `MigrationAttempt`): added by this release, so a
    /// schema written before it has the other two tables without it.
    var attempts: String { quoted + ".attempts" }

    /// Creates the schema and the tables where they do not exist yet; once per connection.
    func create(in session: PostgresSession) throws {
        guard !session.tablesReady else { return }
        if try !exist(in: session) || !attemptsExist(in: session) {
            let key = AdvisoryKey(schema: schema, domain: "", purpose: "tables")
            try session.query("SELECT pg_advisory_xact_lock(\(key.value))")
            try session.query(PostgresQuery(unsafeSQL: "CREATE SCHEMA IF NOT EXISTS \(quoted)"))
            try session.query(PostgresQuery(unsafeSQL: """
                CREATE TABLE IF NOT EXISTS \(marks) (
                    domain text PRIMARY KEY, last_migrated_version text, last_migrated_build text,
                    last_app_version text, last_app_build text, history_is_complete boolean NOT NULL)
                """))
            try session.query(PostgresQuery(unsafeSQL: """
                CREATE TABLE IF NOT EXISTS \(history) (
                    domain text NOT NULL, position bigint NOT NULL, subject text NOT NULL, identifier text,
                    title text NOT NULL, date double precision NOT NULL, duration double precision NOT NULL,
                    outcome text NOT NULL, error text, host text NOT NULL, pid integer NOT NULL,
                    PRIMARY KEY (domain, position))
                """))
            try session.query(PostgresQuery(unsafeSQL: """
                CREATE TABLE IF NOT EXISTS \(attempts) (
                    domain text NOT NULL, position bigint NOT NULL, track text NOT NULL, identifier text NOT NULL,
                    title text NOT NULL, app_version text, app_build text, date double precision NOT NULL,
                    host text NOT NULL, pid integer NOT NULL, PRIMARY KEY (domain, position))
                """))
        }
        session.tablesReady = true
    }

    /// Whether the attempts' table exists.
    private func attemptsExist(in session: PostgresSession) throws -> Bool {
        try session.query("SELECT to_regclass(\(attempts)) IS NOT NULL").first?.decode(Bool.self) ?? false
    }

    /// The domain's attempts, oldest first; none when the table is not there yet.
    func readAttempts(in session: PostgresSession) throws -> [MigrationAttempt] {
        guard try attemptsExist(in: session) else { return [] }
        return try session.query(PostgresQuery(unsafeSQL: """
            SELECT track, identifier, title, app_version, app_build, date FROM \(attempts) WHERE domain = $1 ORDER BY position
            """, binds: try binds(domain))).map { row in
            let (track, identifier, title, appVersion, appBuild, date) = try row.decode((String, String, String, String?, String?, Double).self)
            guard let known = MigrationTrack(rawValue: track) else { throw UnreadableRecord(subject: track, outcome: "attempt") }
            return MigrationAttempt(track: known, identifier: identifier, title: title, appVersion: appVersion, appBuild: appBuild,
                                    date: Date(timeIntervalSince1970: date))
        }
    }

    /// Replaces the domain's attempts, each naming this host and process.
    func writeAttempts(_ list: [MigrationAttempt], in session: PostgresSession) throws {
        try session.query(PostgresQuery(unsafeSQL: "DELETE FROM \(attempts) WHERE domain = $1", binds: try binds(domain)))
        let host = ProcessInfo.processInfo.hostName
        for (position, attempt) in list.enumerated() {
            try session.query(PostgresQuery(unsafeSQL: """
                INSERT INTO \(attempts) (domain, position, track, identifier, title, app_version, app_build, date, host, pid)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
                """, binds: try binds(domain, position, attempt.track.rawValue, attempt.identifier, attempt.title, attempt.appVersion,
                                      attempt.appBuild, attempt.date.timeIntervalSince1970, host, Int32(getpid()))))
        }
    }

    /// Whether both tables exist.
    func exist(in session: PostgresSession) throws -> Bool {
        let rows = try session.query("SELECT to_regclass(\(marks)) IS NOT NULL AND to_regclass(\(history)) IS NOT NULL")
        return try rows.first?.decode(Bool.self) ?? false
    }

    /// The marks, and the history when `withHistory`; a fresh install when nothing is recorded
    /// (or the tables do not exist yet). One round trip: the marks row and the history come
    /// back as JSON in one row.
    func read(withHistory: Bool, in session: PostgresSession) throws -> MigrationState {
        let history = withHistory
            ? "(SELECT json_agg(json_build_array(subject, identifier, title, date, duration, outcome, error) ORDER BY position)::text FROM \(self.history) WHERE domain = $1)"
            : "NULL::text"
        do {
            let row = try session.query(PostgresQuery(unsafeSQL: """
                SELECT (SELECT json_build_array(last_migrated_version, last_migrated_build, last_app_version, last_app_build, history_is_complete)::text
                        FROM \(marks) WHERE domain = $1), \(history)
                """, binds: try binds(domain))).first
            // Both tables were read: a write on this connection need not look for them.
            if withHistory { session.tablesReady = true }
            let (marksJSON, historyJSON) = try row?.decode((String?, String?).self) ?? (nil, nil)
            let records = try historyJSON.map { try JSONDecoder().decode([HistoryRow].self, from: Data($0.utf8)).map(\.record) } ?? []
            guard let marksJSON else { return records.isEmpty ? .freshInstall : MigrationState(history: records) }
            let marks = try JSONDecoder().decode(MarksRow.self, from: Data(marksJSON.utf8))
            return MigrationState(lastMigratedVersion: marks.version, lastMigratedBuild: marks.build, lastAppVersion: marks.appVersion,
                                  lastAppBuild: marks.appBuild, history: records, historyIsComplete: marks.complete)
        } catch let error as PSQLError where ["42P01", "3F000"].contains(error.serverInfo?[.sqlState]) && session.depth == 0 {
            return .freshInstall
        }
    }

    /// A marks row as `json_build_array` gives it.
    private struct MarksRow: Decodable {
        let version, build, appVersion, appBuild: String?
        let complete: Bool

        init(from decoder: any Decoder) throws {
            var values = try decoder.unkeyedContainer()
            (version, build) = (try values.decode(String?.self), try values.decode(String?.self))
            (appVersion, appBuild) = (try values.decode(String?.self), try values.decode(String?.self))
            complete = try values.decode(Bool.self)
        }
    }

    /// A history row as `json_build_array` gives it.
    private struct HistoryRow: Decodable {
        let record: MigrationRecord

        init(from decoder: any Decoder) throws {
            var values = try decoder.unkeyedContainer()
            let subject = try values.decode(String.self), identifier = try values.decode(String?.self)
            let title = try values.decode(String.self), date = try values.decode(Double.self), duration = try values.decode(Double.self)
            let outcome = try values.decode(String.self), error = try values.decode(String?.self)
            guard let knownSubject = MigrationRecord.Subject(rawValue: subject), let knownOutcome = MigrationRecord.Outcome(rawValue: outcome) else {
                throw UnreadableRecord(subject: subject, outcome: outcome)
            }
            record = MigrationRecord(subject: knownSubject, identifier: identifier, title: title, date: Date(timeIntervalSince1970: date),
                                     duration: duration, outcome: knownOutcome, error: error)
        }
    }

    /// A history row with a subject or outcome this package does not write.
    struct UnreadableRecord: Error, CustomStringConvertible {
        let subject, outcome: String
        var description: String { "a history row has subject \(subject) and outcome \(outcome), which this package does not write" }
    }

    /// Replaces the marks and the history with `state`'s: the history appended to where it
    /// only grew, rewritten from the first difference otherwise.
    func write(_ state: MigrationState, in session: PostgresSession) throws {
        if try state.attempts != readAttempts(in: session) { try writeAttempts(state.attempts, in: session) }
        let current = try read(withHistory: true, in: session)
        // Nothing changed (an instance recording the app version another one recorded): no write.
        if current.sameRecords(as: state) { return }
        try writeMarks(state, in: session)
        let stored = current.history
        let kept = zip(stored, state.history).prefix { $0 == $1 }.count
        try session.query(PostgresQuery(unsafeSQL: "DELETE FROM \(history) WHERE domain = $1 AND position >= $2", binds: try binds(domain, kept)))
        try insert(state.history[kept...], from: kept, in: session)
        try notify(state, appended: state.history[kept...], in: session)
    }

    /// Writes the marks of `state` and appends `records`, without reading the history.
    func writeMarks(_ state: MigrationState, appending records: [MigrationRecord], in session: PostgresSession) throws {
        try writeMarks(state, in: session)
        if !records.isEmpty {
            let next = try session.query(PostgresQuery(unsafeSQL: "SELECT COALESCE(MAX(position) + 1, 0) FROM \(history) WHERE domain = $1", binds: try binds(domain)))
                .first?.decode(Int.self) ?? 0
            try insert(records[...], from: next, in: session)
        }
        try notify(state, appended: records[...], in: session)
    }

    private func writeMarks(_ state: MigrationState, in session: PostgresSession) throws {
        try session.query(PostgresQuery(unsafeSQL: """
            INSERT INTO \(marks) (domain, last_migrated_version, last_migrated_build, last_app_version, last_app_build, history_is_complete)
            VALUES ($1, $2, $3, $4, $5, $6)
            ON CONFLICT (domain) DO UPDATE SET last_migrated_version = EXCLUDED.last_migrated_version,
                last_migrated_build = EXCLUDED.last_migrated_build, last_app_version = EXCLUDED.last_app_version,
                last_app_build = EXCLUDED.last_app_build, history_is_complete = EXCLUDED.history_is_complete
            """, binds: try binds(domain, state.lastMigratedVersion, state.lastMigratedBuild, state.lastAppVersion, state.lastAppBuild,
                              state.historyIsComplete)))
    }

    /// Inserts history rows, the first at `position`, each naming this host and process.
    private func insert(_ records: ArraySlice<MigrationRecord>, from position: Int, in session: PostgresSession) throws {
        let host = ProcessInfo.processInfo.hostName
        for (offset, record) in records.enumerated() {
            let bindings = try binds(domain, position + offset, record.subject.rawValue, record.identifier, record.title,
                                     record.date.timeIntervalSince1970, record.duration, record.outcome.rawValue, record.error,
                                     host, Int32(getpid()))
            try session.query(PostgresQuery(unsafeSQL: """
                INSERT INTO \(history) (domain, position, subject, identifier, title, date, duration, outcome, error, host, pid)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
                """, binds: bindings))
        }
    }

    /// Every domain with records, sorted; none when the tables do not exist.
    func domains(in session: PostgresSession) throws -> [String] {
        guard try exist(in: session) else { return [] }
        return try session.query(PostgresQuery(unsafeSQL: "SELECT domain FROM \(marks) UNION SELECT domain FROM \(history) ORDER BY domain"))
            .map { try $0.decode(String.self) }
    }

    /// `values` as the parameters `$1`, `$2`, …; `nil` as NULL.
    private func binds(_ values: (any PostgresThrowingDynamicTypeEncodable)?...) throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            if let value { try bindings.append(value) } else { bindings.appendNull() }
        }
        return bindings
    }
}

private extension MigrationState {
    /// Whether `other` records the same marks and history.
    func sameRecords(as other: MigrationState) -> Bool {
        lastMigratedVersion == other.lastMigratedVersion && lastMigratedBuild == other.lastMigratedBuild
            && lastAppVersion == other.lastAppVersion && lastAppBuild == other.lastAppBuild
            && historyIsComplete == other.historyIsComplete && history == other.history
    }
}
