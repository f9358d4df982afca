import Foundation
import MigrationCore
import PostgresNIO

/// How a ``PostgresMigrationStore`` waits for one of its advisory locks that another session
/// holds: in the server, as its ``patience`` allows. PostgreSQL's own
/// `lock_timeout` bounds the wait (an advisory lock's wait honours it, and ends with SQLSTATE
/// 55P03), set for that statement alone, so that a migration's own statements keep the
/// database's setting.
struct AdvisoryLockWait: Sendable {
    let patience: LockPatience
    /// How long to wait; `nil`: as long as it takes; zero: not at all.
    var limit: Duration? { patience.limit }

    /// Whether the wait is worth an attempt that does not wait first, to tell who holds the lock
    /// or to bound the wait.
    func triesFirst(telling onWait: (@Sendable ([PostgresLockHolder]) -> Void)?) -> Bool {
        onWait != nil || limit != nil
    }

    /// Waits for `key` with `statement`, which takes it (an attempt that does not wait found it
    /// held, if ``triesFirst(telling:)``): tells `onWait` who holds it, then waits as long as
    /// ``limit`` allows, on the session's current transaction if it is in one.
    /// - Throws: ``AdvisoryLockBusy`` when the limit ended first (at once when it is zero: then
    ///   `onWait` is not told, as nothing waits); the server's error otherwise.
    func wait(_ statement: PostgresQuery, for key: AdvisoryKey, in session: PostgresSession,
              telling onWait: (@Sendable ([PostgresLockHolder]) -> Void)?) throws {
        guard triesFirst(telling: onWait) else {
            try session.query(statement)
            return
        }
        let holders = try PostgresLockHolder.holders(of: key, in: session)
        guard let limit else {
            onWait?(holders)
            try session.query(statement)
            return
        }
        guard limit > .zero else { throw AdvisoryLockBusy(holders: holders, patience: patience) }
        onWait?(holders)
        try session.exclusive {
            let inTransaction = session.depth > 0
            let scope = inTransaction ? "LOCAL " : ""
            try session.query(PostgresQuery(unsafeSQL: "SET \(scope)lock_timeout = \(Self.milliseconds(limit))"))
            do {
                try session.query(statement)
            } catch let error as PostgresConnectionError {
                throw error  // the setting went with the connection
            } catch {
                // A failed transaction drops its setting; outside one it stays the session's.
                if !inTransaction { _ = try? session.query("RESET lock_timeout") }
                if let error = error as? PSQLError, error.serverInfo?[.sqlState] == "55P03" {
                    throw AdvisoryLockBusy(holders: holders, patience: patience)
                }
                throw error
            }
            try session.query(inTransaction ? "SET LOCAL lock_timeout TO DEFAULT" : "RESET lock_timeout")
        }
    }

    /// `limit` as `lock_timeout` takes it: whole milliseconds, at least 1 (0 turns it off), at
    /// most PostgreSQL's largest (about 24.8 days).
    static func milliseconds(_ limit: Duration) -> Int {
        let (seconds, attoseconds) = limit.components
        let milliseconds = Double(seconds) * 1_000 + (Double(attoseconds) / 1e15).rounded(.up)
        return Int(min(max(milliseconds, 1), Double(Int32.max)))
    }
}

/// Another session held a ``PostgresMigrationStore``'s lock for longer than the store would
/// wait (its `lockPatience`); the store reports it as ``MigrationCore/MigrationStoreError/Problem/busy(_:)``.
struct AdvisoryLockBusy: SharedExclusiveLockBusy, Sendable {
    /// Who held it when the wait began.
    let holders: [PostgresLockHolder]
    let patience: LockPatience

    /// "held by web-1, pid 4121, since 2026-03-02 18:02:11 UTC; gave up waiting after 5 s".
    var description: String {
        let who = holders.isEmpty ? "another process" : holders.map(\.description).joined(separator: " and ")
        return "held by \(who); \(patience.gaveUp)"
    }
}
