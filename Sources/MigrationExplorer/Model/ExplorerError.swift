/// A problem the front ends report to a person and turn into an exit status.
public struct ExplorerError: Error, CustomStringConvertible, Equatable {
    /// The exit statuses of `migration-explorer`.
    public enum ExitStatus: Int32, Sendable {
        /// A migration failed (or could not be recorded); earlier ones stay recorded.
        case migrationFailed = 1
        /// An interactive session was asked for without a usable terminal.
        case noTerminal = 2
        /// A manifest, version or store that cannot be used.
        case unusableInput = 65
    }

    public let description: String
    public let status: ExitStatus

    public init(_ description: String, status: ExitStatus) {
        self.description = description
        self.status = status
    }
}
