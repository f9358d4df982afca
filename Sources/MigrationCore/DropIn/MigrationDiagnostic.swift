/// Why the drop-in API did not run a block (a bad version, an unreadable store) or could not
/// record that it ran. The drop-in API never crashes and never throws for these: it hands them
/// to the migrator's `onDiagnostic` hook, and writes them to the unified log (`os.Logger`,
/// subsystem `MigrationCore`) on Apple platforms, or to standard error elsewhere when the
/// migrator has no hook.
///
/// ```swift
/// let migrator = Migrator(appVersion: "1.0", store: store, onDiagnostic: { print($0) })
/// migrator.migrateToVersion("1.0-beta") { }   // prints: migrateToVersion("1.0-beta"): did not run: …
/// ```
public struct MigrationDiagnostic: Sendable, CustomStringConvertible {
    /// The call that hit the problem, e.g. `migrateToVersion("1.0-beta")`.
    public let call: String
    /// What went wrong, in words a person can act on.
    public let problem: String

    /// The call and the problem on one line, as logged: `migrateToVersion("1.0-beta"): did not run: …`.
    public var description: String { "\(call): \(problem)" }
}
