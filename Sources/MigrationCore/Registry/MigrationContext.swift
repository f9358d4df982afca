/// What a migration body is given: where the upgrade goes, and a log that front ends show.
///
/// ```swift
/// registry.migrate(toVersion: "0.9", title: "Add GUIDs") { context in
///     let count = try addGUIDs()
///     context.log("added \(count) GUIDs")
/// }
/// ```
public final class MigrationContext: Sendable {
    /// Where the device was: for a migration, the recorded high-water mark on its track; for
    /// an update hook, the recorded app version (or build). `nil` on a fresh install.
    public let from: String?
    /// The app version (or build) being upgraded to.
    public let to: String
    private let lines = Locked<[String]>([])

    public init(from: String?, to: String) {
        self.from = from
        self.to = to
    }

    /// Adds a line to the migration's log, shown in reports and the terminal UI.
    public func log(_ line: String) {
        lines.withLock { $0.append(line) }
    }

    /// The lines logged so far.
    public var logLines: [String] { lines.withLock { $0 } }
}

/// The work a migration or hook does. It may throw to fail the run.
public typealias MigrationBody = @Sendable (MigrationContext) throws -> Void
