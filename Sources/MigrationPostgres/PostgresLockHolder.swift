import Foundation
import PostgresNIO

/// A process that holds a ``PostgresMigrationStore``'s lock: which host, which process, since
/// when. Read from `pg_locks` and `pg_stat_activity`, where every session of the store names
/// itself (`application_name`), so it is right even for a holder on another machine.
///
/// ```swift
/// for holder in try store.runHolders() { print(holder) }   // a run on web-3, pid 4121, since 18:02:11 UTC
/// ```
public struct PostgresLockHolder: Sendable, Equatable, CustomStringConvertible {
    /// The holder's host name, as it gave it.
    public let host: String
    /// The holder's process id on its host.
    public let pid: Int32
    /// When it took the lock (for a run), or began its transaction (for a block).
    public let since: Date
    /// The server's own process for the holder's session.
    public let backendPID: Int32

    public var description: String {
        "\(host), pid \(pid), since \(Self.clock.string(from: since)) UTC"
    }

    private static let clock: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter
    }()

    /// The prefix of every session's `application_name`.
    static let prefix = "migration-explorer"

    /// `migration-explorer <pid> <since> <host>`, at most 63 bytes (PostgreSQL's limit); since
    /// as seconds since 1970, or `-` before any run.
    static func applicationName(since: Date?) -> String {
        let since = since.map { String(Int($0.timeIntervalSince1970)) } ?? "-"
        let name = "\(prefix) \(getpid()) \(since) \(ProcessInfo.processInfo.hostName)"
        return String(decoding: Array(name.utf8.prefix(63)), as: UTF8.self)
    }

    /// The holders of `key`, each with the fields of its `application_name`; a session that
    /// is not this package's is named by its address and backend process.
    static func holders(of key: AdvisoryKey, in session: PostgresSession) throws -> [PostgresLockHolder] {
        let rows = try session.query("""
            SELECT a.application_name, COALESCE(host(a.client_addr), 'local'), a.pid,
                   EXTRACT(EPOCH FROM COALESCE(a.xact_start, a.backend_start))::float8
            FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
            WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
              AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
              AND l.classid::bigint = \(key.classID) AND l.objid::bigint = \(key.objectID)
              AND a.pid <> pg_backend_pid()
            ORDER BY a.pid
            """)
        return try rows.map { row in
            let (name, address, backend, started) = try row.decode((String?, String, Int32, Double).self)
            return PostgresLockHolder(name: name ?? "", address: address, backendPID: backend, started: Date(timeIntervalSince1970: started))
        }
    }

    private init(name: String, address: String, backendPID: Int32, started: Date) {
        let fields = name.split(separator: " ", maxSplits: 3).map(String.init)
        if fields.count == 4, fields[0] == Self.prefix, let pid = Int32(fields[1]) {
            self.host = fields[3]
            self.pid = pid
            self.since = Double(fields[2]).map(Date.init(timeIntervalSince1970:)) ?? started
        } else {
            self.host = address
            self.pid = 0
            self.since = started
        }
        self.backendPID = backendPID
    }
}
