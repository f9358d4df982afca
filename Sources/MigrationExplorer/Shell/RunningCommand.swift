import Foundation
import MigrationCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A started command that may be told to stop early: by a timeout or a cancellation.
///
/// ```swift
/// let command = RunningCommand(group: ProcessGroup(id: pid), grace: .seconds(2))
/// command.stop(reason: "timed out after 30 s")   // SIGTERM now, SIGKILL in 2 s if still running
/// command.stopReason                             // "timed out after 30 s"
/// ```
final class RunningCommand: Sendable {
    let group: ProcessGroup
    let grace: Duration
    private let state = Locked<(reason: String?, shellExited: Bool)>((nil, false))

    init(group: ProcessGroup, grace: Duration) {
        self.group = group
        self.grace = grace
    }

    /// Why it was stopped, if it was; the first reason wins.
    var stopReason: String? {
        state.withLock { $0.reason }
    }

    /// Sends SIGTERM to the command's process group, and SIGKILL after the grace period if
    /// its shell is still running then; returns at once.
    func stop(reason: String) {
        let first: Bool = state.withLock { state in
            guard state.reason == nil, !state.shellExited else { return false }
            state.reason = reason
            return true
        }
        guard first else { return }
        group.send(SIGTERM)
        CommandTimers.after(grace) { [self] in
            if !state.withLock({ $0.shellExited }) { group.send(SIGKILL) }
        }
    }

    /// The shell has exited and been waited for: a later ``stop(reason:)`` does nothing (the
    /// rest of the group is ended by ``ProcessGroup/end(grace:)`` then).
    func shellDidExit() {
        state.withLock { $0.shellExited = true }
    }
}
