/// Something wrong (or suspicious) in a registry, found while planning. All are listed; none
/// stops planning.
public struct ValidationProblem: Sendable, Equatable, CustomStringConvertible {
    public enum Severity: String, Sendable {
        /// The migration cannot run (invalid or duplicate version).
        case error
        /// It runs, but not as the declaration order suggests.
        case warning
    }

    public let severity: Severity
    /// The ``RegisteredMigration/id`` it is about.
    public let migrationID: Int
    public let message: String

    public var description: String { "\(severity): \(message)" }
}
