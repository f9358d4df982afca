/// What a device's records tell about the time before its history began: whether a migration
/// at or below its high-water mark, with no record of running, ran then. A plan builds it once;
/// ``MigrationRule/whyNeverRan(_:since:on:before:)`` reads it for each such migration.
struct PriorHistory: Sendable {
    /// The history covers everything since a fresh install (or the latest reset): nothing ran
    /// before it, and what has no record never ran.
    let historyIsComplete: Bool
    /// The app version the device last ran before its history began (with a complete history,
    /// the one it runs now), when its records tell (``MigrationRule/appVersionBeforeHistory(of:)``):
    /// code first shipped after it never ran then.
    let appVersion: Version?
    /// The version migrations that replaying the releases up to ``appVersion`` runs, when it is
    /// one of the registry's releases (``MigrationRule/ranOnReplay(_:through:)``).
    let ranOnReplay: Set<Version>?

    /// The prior history of a device in `state`, for `registry`.
    init(_ state: MigrationState, registry: MigrationRegistry) {
        historyIsComplete = state.historyIsComplete
        appVersion = MigrationRule.appVersionBeforeHistory(of: state)
        ranOnReplay = historyIsComplete ? nil : appVersion.flatMap { MigrationRule.ranOnReplay(registry, through: $0) }
    }
}

/// Why a migration at or below a device's mark, with no record of running, never ran (and,
/// MTMigration's rule being what it is, never will on that device).
///
/// ```swift
/// for problem in plan.problems {
///     if case .outOfOrder(_, let suggested, .shippedAfter(let since, _)) = problem.kind {
///         print("shipped in \(since), after the device's version: give it \(suggested)")
///     }
/// }
/// ```
public enum NeverRan: Sendable, Equatable {
    /// The history is complete and holds no record of it.
    case noRecord
    /// Its code first shipped in `since`, after `appVersion`, the last app version the device
    /// ran before its history began; the history since holds no record of it.
    case shippedAfter(since: Version, appVersion: Version)
    /// Replaying the app's releases up to the device's app version never runs it.
    case notOnReplay
}
