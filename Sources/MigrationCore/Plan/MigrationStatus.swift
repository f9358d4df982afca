/// Where a migration stands in a plan.
///
/// ```swift
/// switch entry.status {
/// case .pending, .failed: print("runs next launch")
/// case .skipped(let reason): print("skipped:", reason.phrase)
/// case .applied: break
/// }
/// ```
public enum MigrationStatus: Sendable, Equatable {
    /// At or below the recorded high-water mark, and it ran (or history is not known).
    case applied
    /// Runs on the next launch: `last < version ≤ app`.
    case pending
    /// Pending, and its body threw in the last run (``MigrationPlan/lastRecord(of:)`` says
    /// why); it will be tried again.
    case failed
    /// Will not run, and why.
    case skipped(SkipReason)

    /// The status word front ends show and scripts read: applied, pending, failed or skipped.
    public var word: String {
        switch self {
        case .applied: "applied"
        case .pending: "pending"
        case .failed: "failed"
        case .skipped: "skipped"
        }
    }

    /// Whether the next run executes it.
    public var willRun: Bool {
        switch self {
        case .pending, .failed: true
        case .applied, .skipped: false
        }
    }
}

/// Why a migration will not run.
///
/// ```swift
/// if case .skipped(let reason) = entry.status { print(reason.rawValue) }   // "out-of-order", as `plan --json` writes it
/// ```
public enum SkipReason: String, Sendable, Equatable, CaseIterable {
    /// Its version is above the app's: MTMigration never runs those.
    case aboveAppVersion = "above-app-version"
    /// At or below the high-water mark but it never ran: MTMigration silently never runs it.
    case outOfOrder = "out-of-order"
    /// Its version cannot be parsed.
    case invalidVersion = "invalid-version"
    /// Another migration on the same track has the same version; only the first counts.
    case duplicate

    /// A few words for people, e.g. "above app version".
    public var phrase: String { rawValue.replacingOccurrences(of: "-", with: " ") }
}
