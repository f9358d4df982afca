import Foundation
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
final class RunningCommand: @unchecked Sendable {
    let group: ProcessGroup
    let grace: Duration
    // Safe: both are only touched while `lock` is held.
    private let lock = NSLock()
    private var reason: String?
    private var shellExited = false

    init(group: ProcessGroup, grace: Duration) {
        self.group = group
        self.grace = grace
    }

    /// Why it was stopped, if it was; the first reason wins.
    var stopReason: String? {
        lock.withLock { reason }
    }

    /// Sends SIGTERM to the command's process group, and SIGKILL after the grace period if
    /// its shell is still running then; returns at once.
    func stop(reason: String) {
        let first: Bool = lock.withLock {
            guard self.reason == nil, !shellExited else { return false }
            self.reason = reason
            return true
        }
        guard first else { return }
        group.send(SIGTERM)
        Task.detached(priority: Task.currentPriority) { [self] in
            try? await Task.sleep(for: grace)
            if !lock.withLock({ shellExited }) { group.send(SIGKILL) }
        }
    }

    /// The shell has exited and been waited for: a later ``stop(reason:)`` does nothing (the
    /// rest of the group is ended by ``ProcessGroup/end(grace:)`` then).
    func shellDidExit() {
        lock.withLock { shellExited = true }
    }
}
