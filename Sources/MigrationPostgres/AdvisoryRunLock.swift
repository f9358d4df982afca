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

    init(session: PostgresSession, key: AdvisoryKey) {
        self.session = session
        self.key = key
    }

    func lock(exclusive: Bool, wait: Bool) throws -> Bool {
        if !wait {
            let free = try session.query("SELECT pg_try_advisory_lock(\(key.value))").first?.decode(Bool.self) ?? false
            heldExclusive = free
            return free
        }
        if exclusive {
            try session.query("SELECT pg_advisory_lock(\(key.value))")
        } else {
            let name = PostgresLockHolder.applicationName(since: Date())
            try session.query("SELECT pg_advisory_lock_shared(\(key.value)), set_config('application_name', \(name), false)")
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
