import Foundation
import MigrationCore

/// The hold across machines of a ``PostgresMigrationStore``'s runs and resets: an advisory
/// lock of the domain, held shared by a run (from its plan to its last record) and exclusive
/// by a reset or set, on the store's own connection, so that it ends with the connection.
/// Taking it for a run names the time in the session's `application_name`, which
/// ``PostgresLockHolder`` reads.
final class AdvisoryRunLock: SharedExclusiveLock, @unchecked Sendable {
    // Safe: `heldExclusive` is only touched by ``RunLock``, one call at a time.
    private var heldExclusive = false
    private let session: PostgresSession
    private let key: AdvisoryKey
    private let waiting: AdvisoryLockWait
    private let onWait: (@Sendable ([PostgresLockHolder]) -> Void)?

    /// `onWait`: told who holds the lock before a wait for it.
    init(session: PostgresSession, key: AdvisoryKey, waiting: AdvisoryLockWait, onWait: (@Sendable ([PostgresLockHolder]) -> Void)?) {
        self.session = session
        self.key = key
        self.waiting = waiting
        self.onWait = onWait
    }

    /// Takes the lock at once when it is free; otherwise, with `wait`, waits for it as long as
    /// the store waits.
    /// - Throws: ``AdvisoryLockBusy`` when another process holds it for longer than the store
    ///   waits; the server's error otherwise.
    func lock(exclusive: Bool, wait: Bool) throws -> Bool {
        let key = key.value
        let free = try session.query(exclusive ? "SELECT pg_try_advisory_lock(\(key))" : "SELECT pg_try_advisory_lock_shared(\(key))")
            .first?.decode(Bool.self) ?? false
        if !free {
            guard wait else { return false }
            try waiting.wait(exclusive ? "SELECT pg_advisory_lock(\(key))" : "SELECT pg_advisory_lock_shared(\(key))",
                             for: self.key, in: session, telling: onWait)
        }
        if !exclusive {
            try session.query("SELECT set_config('application_name', \(PostgresLockHolder.applicationName(since: Date())), false)")
        }
        heldExclusive = exclusive
        return true
    }

    /// Lets the lock go; a connection already lost has let it go with it.
    func unlock() {
        let key = key.value
        _ = try? session.query(heldExclusive ? "SELECT pg_advisory_unlock(\(key))" : "SELECT pg_advisory_unlock_shared(\(key))")
    }
}
