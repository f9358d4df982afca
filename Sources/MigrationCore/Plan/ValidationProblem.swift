/// Something wrong (or suspicious) in a registry, found while planning. All are listed; none
/// stops planning. The message is worded only when asked for, so planning stays fast.
///
/// ```swift
/// for problem in plan.problems { print(problem) }
/// // warning: version 0.7 "Trim titles" is declared after version 1.0 "Pin notes"; it runs in version order here, …
/// ```
public struct ValidationProblem: Sendable, CustomStringConvertible {
    /// How bad a problem is.
    public enum Severity: String, Sendable {
        /// The migration cannot run (invalid or duplicate version).
        case error
        /// It runs, but not as the declaration order suggests.
        case warning
    }

    /// What is wrong.
    public enum Kind: Sendable {
        /// Its version cannot be parsed.
        case invalidVersion(VersionError)
        /// Same track and version as an earlier declaration, which is the one that counts.
        case duplicate(of: RegisteredMigration)
        /// Declared after a migration with a higher version on the same track.
        case declaredAfter(RegisteredMigration)
        /// Its `since` is not a version.
        case invalidSince(VersionError)
        /// At or below the device's `lastMigrated` mark, yet it never ran (`why`): this device
        /// never will run it. The fix: a version above the last release, such as `suggested`.
        // Indirect: its reason holds two versions, and inline they would make every problem of
        // a plan (a million, for a million migrations declared out of order) that much larger.
        indirect case outOfOrder(lastMigrated: String, suggested: String, why: NeverRan)
    }

    /// The migration it is about.
    public let migration: RegisteredMigration
    /// What is wrong.
    public let kind: Kind

    /// The migration's ``RegisteredMigration/id``.
    public var migrationID: Int { migration.id }

    /// An error for a migration that cannot run, a warning for one that runs other than its
    /// declaration suggests.
    public var severity: Severity {
        switch kind {
        case .declaredAfter, .outOfOrder: .warning
        case .invalidVersion, .duplicate, .invalidSince: .error
        }
    }

    /// The problem in words, naming the migration, with a fix where there is one.
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

    /// The severity and the message: `warning: version 0.9 "Add GUIDs" is out of order: …`.
    public var description: String { "\(severity): \(message)" }
}
