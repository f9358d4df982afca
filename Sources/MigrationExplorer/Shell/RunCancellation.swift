import Foundation
import MigrationCore

/// Stops a run from outside: a signal to the command line, Ctrl-C or Esc in the terminal UI.
///
/// The command running now has its process group ended (SIGTERM, then SIGKILL after the
/// grace period) and fails with the reason given; every command after it refuses to start,
/// so the run stops there, recorded as failed. The task awaiting the run is cancelled too
/// (``whenCancelled(_:)``): a Swift body sees `Task.isCancelled`, and the run stops before
/// the next migration. Cancelling that task cancels this (``Explorer/run(observer:)``). One
/// per run: a cancelled one stays cancelled.
///
/// ```swift
/// let cancellation = RunCancellation()
/// // from a signal handler or a key press, on any thread:
/// cancellation.cancel()            // the running migration fails with "cancelled"
/// ```
final class RunCancellation: Sendable {
    private struct State {
        var reason: String?
        var running: RunningCommand?
        var onCancel: [@Sendable () -> Void] = []
    }

    private let state = Locked(State())

    init() {}

    /// Why the run was stopped, once it was.
    var cancellationReason: String? {
        state.withLock { $0.reason }
    }

    /// Stops the run: ends the running command, if any, and keeps any later one from starting.
    func cancel(reason: String = "cancelled") {
        let (command, actions): (RunningCommand?, [@Sendable () -> Void]) = state.withLock { state in
            if state.reason == nil { state.reason = reason }
            defer { state.onCancel = [] }
            return (state.running, state.onCancel)
        }
        command?.stop(reason: reason)
        actions.forEach { $0() }
    }

    /// Gives up waiting for a cancelled run to stop, before the process leaves: the running
    /// command's group, if any, is killed at once (SIGKILL). A Swift body that ignores
    /// cancellation cannot be stopped; leaving abandons it, unrecorded.
    func abandon() {
        state.withLock { $0.running }?.group.send(SIGKILL)
    }

    /// Calls `action` when the run is cancelled, or at once if it already was.
    func whenCancelled(_ action: @escaping @Sendable () -> Void) {
        let cancelled: Bool = state.withLock { state in
            if state.reason == nil { state.onCancel.append(action) }
            return state.reason != nil
        }
        if cancelled { action() }
    }

    /// Makes `command` the one a ``cancel(reason:)`` stops; stops it at once when the run
    /// was already cancelled.
    func register(_ command: RunningCommand) {
        let reason: String? = state.withLock { state in
            state.running = command
            return state.reason
        }
        if let reason { command.stop(reason: reason) }
    }

    func unregister(_ command: RunningCommand) {
        state.withLock { state in if state.running === command { state.running = nil } }
    }
}
