/// A store that records each migration's start before its body runs, so that an attempt the
/// process did not survive is known on the next run (see ``MigrationAttempt``): the body is told
/// how many there were (``MigrationContext/interruptedAttempts``), and a migration interrupted
/// too often at one app build is held back (``MigrationRule/isHeldBack(interruptions:limit:)``).
///
/// Every store of this package conforms. ``saveAttempts(_:)`` must be durable when it returns
/// (a step's body starts right after it); a store's `load()` returns the attempts in
/// ``MigrationState/attempts``. A run calls both inside
/// ``MigrationStore/withExclusiveAccess(_:)``, outside the block's own transaction (a block
/// called from inside another block's body writes within the outer one's).
///
/// ```swift
/// final class KeyValueStore: RecordsAttempts {
///     func loadAttempts() throws -> [MigrationAttempt] { try decoded(database["attempts"]) ?? [] }
///     func saveAttempts(_ attempts: [MigrationAttempt]) throws { try database.set(encoded(attempts), for: "attempts", sync: true) }
///     // …
/// }
/// ```
public protocol RecordsAttempts: MigrationStore {
    /// The recorded attempts, oldest first.
    /// - Throws: the store's error when they cannot be read.
    func loadAttempts() throws -> [MigrationAttempt]
    /// Replaces the recorded attempts, durably.
    /// - Throws: the store's error when they cannot be written.
    func saveAttempts(_ attempts: [MigrationAttempt]) throws
    /// Saves a step's marks and records (``MigrationStore/saveMarks(_:appending:)``) and the
    /// attempts without the step's own, as one write where the store can: a record is never
    /// saved with its attempt still open, nor the attempt taken back without its record. The
    /// default saves the marks, then the attempts (one write inside a transaction).
    func saveMarks(_ state: MigrationState, appending records: [MigrationRecord], attempts: [MigrationAttempt]) throws
}

extension RecordsAttempts {
    public func saveMarks(_ state: MigrationState, appending records: [MigrationRecord], attempts: [MigrationAttempt]) throws {
        try saveMarks(state, appending: records)
        try saveAttempts(attempts)
    }

    /// ``MigrationStore/recordStep(_:)`` that takes `attempt` back in the same write.
    func recordStep(_ change: (inout MigrationState) -> Void, closing attempt: MigrationAttempt) throws -> MigrationState {
        try recordStep(change) { try saveMarks($0, appending: $0.history, attempts: try loadAttempts().filter { !$0.matches(attempt) }) }
    }
}

extension MigrationRule {
    /// How many attempts a store keeps: the newest; older ones no longer count toward holding
    /// a migration back (each count starts after its migration's last record anyway).
    public static let attemptsKept = 64
}
