/// Something wrong (or suspicious) in a registry, found while planning. All are listed; none
/// stops planning. The message is worded only when asked for, so planning stays fast.
public struct ValidationProblem: Sendable, CustomStringConvertible {
    public enum Severity: String, Sendable {
        /// The migration cannot run (invalid or duplicate version).
        case error
        /// It runs, but not as the declaration order suggests.
        case warning
    }

    public enum Kind: Sendable {
        case invalidVersion(VersionError)
        /// Same track and version as an earlier declaration, which is the one that counts.
        case duplicate(of: RegisteredMigration)
        /// Declared after a migration with a higher version on the same track.
        case declaredAfter(RegisteredMigration)
    }

    /// The migration it is about.
    public let migration: RegisteredMigration
    public let kind: Kind

    public var migrationID: Int { migration.id }

    public var severity: Severity {
        if case .declaredAfter = kind { return .warning }
        return .error
    }

    public var message: String {
        switch kind {
        case .invalidVersion(let error):
            "\(migration.label): \(error)"
        case .duplicate(let first):
            "\(migration.label) duplicates \(first.label); only the first one counts"
        case .declaredAfter(let higher):
            "\(migration.label) is declared after \(higher.label); it runs in version order here, where MTMigration would never run it"
        }
    }

    public var description: String { "\(severity): \(message)" }
}
