/// What a run or dry-run did, step by step, and the state it left.
///
/// ```swift
/// let report = try runner.run(store: store)
/// for step in report.steps { print(step.subject.label, step.outcome, step.duration) }
/// if let failure = report.failure { print("stopped at", failure.subject.label) }
/// ```
public struct RunReport: Sendable {
    /// Whether the report is of a run or of a dry-run.
    public enum Mode: String, Sendable {
        /// Steps ran, and what succeeded was recorded.
        case run
        /// Nothing ran and nothing was written.
        case dryRun = "dry-run"
    }

    /// A run or a dry-run.
    public let mode: Mode
    /// The plan the run followed.
    public let plan: MigrationPlan
    /// Migrations, then hooks, in the order they ran (or would run).
    public let steps: [RunStep]
    /// The recorded state after the run (for a dry-run: what it would be).
    public let state: MigrationState
    /// Set when the store refused a write: the run stopped there, and what it had recorded
    /// before stays recorded.
    public let saveError: MigrationStoreError?
    /// Pending migrations this run left for the next one without recording anything for them:
    /// the ones a launch-time budget had no time left for, or those from a cancelled body on.
    public internal(set) var deferred: [RegisteredMigration] = []
    /// Pending migrations that did not run because a body before them failed: a run stops at
    /// its first failure. Those of the failed one's track run after it once it has succeeded
    /// (the failure rule, ``MigrationRule/isHeldBack(_:byFailureOf:)``); those of the other
    /// track, on the next run. Also those of the track of a migration held back by its
    /// interruptions (``interruptedHoldBacks``), which wait behind it.
    public internal(set) var heldBack: [RegisteredMigration] = []
    /// Whether the task awaiting the run was cancelled (or a body threw `CancellationError`):
    /// the run stopped there, and every success before it stays recorded.
    public internal(set) var wasCancelled = false

    /// The step that stopped the run, if one did.
    public var failure: RunStep? {
        steps.first { if case .failed = $0.outcome { true } else { false } }
    }

    /// The migrations held back because earlier attempts of them were interrupted too often at
    /// this build (``InterruptedHoldBack``): not run, their track waiting behind them, the
    /// rest of the launch done. An app reports them to its own telemetry.
    ///
    /// ```swift
    /// for held in report.interruptedHoldBacks { log.error("\(held.version): \(held)") }   // 1.0: interrupted 3 times at build 120, held back
    /// ```
    public var interruptedHoldBacks: [InterruptedHoldBack] {
        steps.compactMap { if case .heldBack(let held) = $0.outcome { held } else { nil } }
    }

    /// Whether no step failed and every record was saved.
    public var succeeded: Bool { failure == nil && saveError == nil }
}

/// One migration or hook in a ``RunReport``.
///
/// ```swift
/// for step in report.steps where step.outcome != .succeeded {
///     print(step.subject.label, step.outcome, step.log.joined(separator: "\n"))
/// }
/// ```
public struct RunStep: Sendable {
    /// What a step ran: a migration or an update hook.
    public enum Subject: Sendable {
        /// A version or build migration.
        case migration(RegisteredMigration)
        /// An update hook (`onUpdate`, `onBuildUpdate`).
        case hook(UpdateHook)

        /// How reports name it: `version 0.9 "Add GUIDs"`, `onUpdate "Reset statistics"`.
        public var label: String {
            switch self {
            case .migration(let migration): migration.label
            case .hook(let hook): "\(hook.kind) \(hook.title.quotedTitle)"
            }
        }

        /// The migration's or hook's title.
        public var title: String {
            switch self {
            case .migration(let migration): migration.title
            case .hook(let hook): hook.title
            }
        }
    }

    /// How a step ended.
    public enum Outcome: Sendable, Equatable {
        /// The body returned, and its record was saved.
        case succeeded
        /// The body threw, or its success could not be recorded; the message says which.
        case failed(String)
        /// A dry-run: this step would run.
        case wouldRun
        /// Recorded as applied without running (fresh install, baseline policy).
        case baselined
        /// The body was cancelled (it threw `CancellationError`): nothing was recorded, so it
        /// runs again next time.
        case cancelled
        /// Not run: earlier attempts of it were interrupted too often at this build; its track
        /// waits behind it, the other track went on.
        case heldBack(InterruptedHoldBack)
    }

    /// The migration or hook.
    public let subject: Subject
    /// How it ended.
    public let outcome: Outcome
    /// Seconds the body took (0 when it did not run).
    public let duration: Double
    /// Lines the body logged through its ``MigrationContext``.
    public let log: [String]
}

/// Progress of a run, for front ends that show it as it happens.
///
/// ```swift
/// let report = try await runner.run(store: store) { event in
///     if case .progress(let subject, let fraction) = event { print(subject.title, fraction) }
/// }
/// ```
public enum RunEvent: Sendable {
    /// A step starts.
    case started(RunStep.Subject)
    /// The running body reported progress, from 0 to 1 (see ``MigrationContext/reportProgress(_:)``).
    case progress(RunStep.Subject, Double)
    /// A step ended, with its outcome, duration and log.
    case finished(RunStep)
}
