/// A run in progress as the screen shows it, beside its finished steps (``ViewState/running``)
/// and its running step (``ViewState/runningStep``): when it began, the clock's last tick, the
/// manifest command running and its latest output line, and whether it was asked to stop.
///
/// ```swift
/// var activity = RunActivity(began: .now)
/// activity.command = RunActivity.Command(title: "0.9 `./slow.sh`", started: .now)
/// ```
package struct RunActivity: Sendable {
    /// A manifest command that is running.
    package struct Command: Sendable {
        package var title: String
        package var started: ContinuousClock.Instant
    }

    package let began: ContinuousClock.Instant
    /// The last tick: elapsed times are measured up to it.
    package var now: ContinuousClock.Instant
    package var command: Command?
    package var lastLine = ""
    /// Ctrl-C or Esc asked the run to stop; Ctrl-C again gives up waiting for it.
    package var cancelled = false

    package init(began: ContinuousClock.Instant) {
        self.began = began
        now = began
    }
}

extension ViewState {
    /// Where the run in progress is; `nil` when none is. A step has started once one runs or
    /// has finished, or a command has started.
    var runPhase: LiveRunPhase? {
        guard let activity else { return nil }
        guard activity.command == nil, runningStep == nil, running?.isEmpty != false else { return .running }
        return .starting(waited: activity.now - activity.began)
    }

    /// Whether a run is going on.
    package var isRunning: Bool { activity != nil }
}
