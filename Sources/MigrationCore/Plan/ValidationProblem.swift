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
        /// Its `since` is not a version.
        case invalidSince(VersionError)
        /// At or below the device's `lastMigrated` mark, yet it never ran (`why`): this device
        /// never will run it. The fix: a version above the last release, such as `suggested`.
        case outOfOrder(lastMigrated: String, suggested: String, why: NeverRan)
    }

    /// The migration it is about.
    public let migration: RegisteredMigration
    public let kind: Kind

    public var migrationID: Int { migration.id }

    public var severity: Severity {
        switch kind {
        case .declaredAfter, .outOfOrder: .warning
        case .invalidVersion, .duplicate, .invalidSince: .error
        }
    }

    public var message: String {
        switch kind {
        case .invalidVersion(let error):
            "\(migration.label): \(error)"
        case .duplicate(let first):
            "\(migration.label) duplicates \(first.label); only the first one counts"
        case .declaredAfter(let higher):
            "\(migration.label) is declared after \(higher.label); it runs in version order here, where MTMigration would never run it"
        case .invalidSince(let error):
            "\(migration.label) since: \(error)"
        case .outOfOrder(let lastMigrated, let suggested, .shippedAfter(let since, let appVersion)):
            "\(migration.label) is out of order: shipped in \(since.text), after this device's \(appVersion.text); MTMigration never runs it, since this device last migrated at \(lastMigrated); give it a version above the last release, e.g. \(suggested)"
        case .outOfOrder(let lastMigrated, let suggested, _):
            "\(migration.label) is out of order: this device last migrated at \(lastMigrated) and never ran it, so it never will; give it a version above the last release, e.g. \(suggested)"
        }
    }

    public var description: String { "\(severity): \(message)" }
}
