import MigrationCore

/// Everything the terminal UI's loop reacts to, one at a time, through ``Update``: a key, a
/// resize, the clock, what a run in progress reports, the store's answer to an ``Effect``,
/// and what the loop follows: the store's and the manifest's changes.
///
/// ```swift
/// let effect = Update.handle(.run(.finished(step)), &state, layout: layout)
/// ```
package enum Event: Sendable {
    case key(Key)
    case resize(Size)
    /// The clock, so that a running step's elapsed time moves without anything else happening.
    case tick(ContinuousClock.Instant)
    case run(RunUpdate)
    /// The store has carried out an effect (``StoreWork``).
    case store(StoreAnswer)
    /// Another process changed the store, or its changes cannot be heard for now
    /// (``RealStore/changes()``, the loop's subscription).
    case storeChanged(StoreChange)
    /// The manifest was saved: read again, valid or not (``FollowedManifest``).
    case manifest(ManifestFollower.Outcome)
}

extension Event {
    /// What the terminal gave.
    init(_ event: TerminalEvent) {
        switch event {
        case .key(let key): self = .key(key)
        case .resize(let size): self = .resize(size)
        }
    }
}

/// What a run the loop started says as it goes: the walk's ``RunEvent``s, its commands'
/// starts and output, and its end.
package enum RunUpdate: Sendable {
    /// The run began at this instant (before it takes the store, which another process may hold).
    case began(ContinuousClock.Instant)
    /// A step starts.
    case started(RunStep.Subject, at: ContinuousClock.Instant)
    /// The running body reported progress, from 0 to 1.
    case progress(RunStep.Subject, Double)
    /// A step ended.
    case finished(RunStep)
    /// A manifest command starts (`0.9 \`./scripts/slow.sh\``).
    case commandStarted(String, at: ContinuousClock.Instant)
    /// A line of the running command's output.
    case output(String)
    /// The run is over, and the plan as it now stands.
    case ended(RunEnding)
}

/// How a run ended: its report (or why there is none), the plan read after it, and what the
/// store then allows (`nil`: as before).
package struct RunEnding: Sendable {
    package var report: Result<RunReport, RunFailure>
    package var plan: Result<MigrationPlan, RunFailure>
    package var facts: StoreFacts?

    package init(report: Result<RunReport, RunFailure>, plan: Result<MigrationPlan, RunFailure>, facts: StoreFacts? = nil) {
        self.report = report
        self.plan = plan
        self.facts = facts
    }
}

/// An error of a run or of reading the plan after it, as the message line shows it.
package struct RunFailure: Error, Sendable, CustomStringConvertible {
    package let description: String

    package init(_ error: any Error) { description = String(describing: error) }
}

extension RunUpdate {
    /// The walk's event as the loop sees it, stamped with `now`.
    init(_ event: RunEvent, now: ContinuousClock.Instant = .now) {
        switch event {
        case .started(let subject): self = .started(subject, at: now)
        case .progress(let subject, let fraction): self = .progress(subject, fraction)
        case .finished(let step): self = .finished(step)
        }
    }
}
