/// Where a run in the terminal UI is (``ViewState/runPhase``), for what its screen says and what stopping it does:
/// before its first step starts it may wait for the store (another process holds the store's
/// lock, as an orphaned command of a killed run does), and leaving then abandons nothing.
///
/// ```swift
/// let phase = LiveRunPhase.starting(waited: .seconds(2))
/// phase.message(cancelled: false, isSandbox: false)?.text   // "Waiting for the store: another process holds it…"
/// phase.footer(cancelled: true)                             // "Ctrl-C again quits at once · cancelled: …"
/// ```
enum LiveRunPhase: Equatable {
    /// No step has started yet, for `waited` since the run began: it reads the store, or waits for its lock.
    case starting(waited: Duration)
    /// A step has started.
    case running

    /// How long a run goes without starting a step before its screen says it waits for the store.
    static let waitingShownAfter: Duration = .seconds(1)

    /// The message line's words, where the phase has its own; `nil` while steps run (the
    /// session's state, or the running command, says what happens).
    func message(cancelled: Bool, isSandbox: Bool, ellipsis: String = "…") -> ViewState.Message? {
        switch (self, cancelled) {
        case (.running, false): nil
        case (.running, true): .init(text: "Cancelling the run\(ellipsis)", role: .failed)
        case (.starting, true): .init(text: "Cancelled before anything ran: the run ends once the store is free", role: .failed)
        case (.starting(let waited), false):
            !isSandbox && waited >= Self.waitingShownAfter
                ? .init(text: "Waiting for the store: another process holds it\(ellipsis)", role: .warning)
                : .init(text: "Starting the run\(ellipsis)", role: .pending)
        }
    }

    /// How to stop the run, first in the footer while it goes (and in the "too small" notice).
    func footer(cancelled: Bool) -> String {
        switch (self, cancelled) {
        case (_, false): "Ctrl-C or Esc cancels the run"
        case (.running, true): "Ctrl-C again quits at once · cancelling: waiting for the running step to stop"
        case (.starting, true): "Ctrl-C again quits at once · cancelled: waiting for the store to be free"
        }
    }

    /// What the process says as it leaves at once, stopped by `cause` ("Ctrl-C", "signal 15")
    /// while `running` (a command, or a Swift body's label) has not stopped.
    func leavingMessage(cause: String, running: String?) -> String {
        switch self {
        case .starting: "stopped by \(cause) before anything ran"
        case .running: "gave up waiting for \(running ?? "the running migration") to stop: it is not recorded and runs again next time"
        }
    }
}
