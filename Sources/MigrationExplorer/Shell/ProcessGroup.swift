import CProcessControl
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A command's process group: its shell and everything the shell started that did not leave
/// the group. Ending a command ends the whole group, so no background child outlives it.
///
/// swift-subprocess starts the shell in the group (`PlatformOptions.processGroupID = 0`) and
/// waits for the shell itself; the rest of the group is not its children, so this type
/// signals the group and watches it go with plain POSIX calls.
///
/// ```swift
/// let group = ProcessGroup(id: shellPID)
/// await group.end(grace: .seconds(2))   // SIGTERM, then SIGKILL after 2 s
/// ```
struct ProcessGroup: Sendable, Equatable {
    let id: pid_t

    /// Sends `signal` to every process of the group.
    func send(_ signal: Int32) {
        kill(-id, signal)
    }

    /// Whether a process of the group is still alive. Collects the group's exited orphans
    /// first (see ``adoptOrphans()``), so that zombies do not count.
    /// - Warning: Only once the shell has been waited for: before, this could collect the
    ///   shell's own exit status.
    var isAlive: Bool {
        reapOrphans()
        return kill(-id, 0) == 0 || errno == EPERM
    }

    /// Sends SIGTERM to the group, waits up to `grace` for it to go, then sends SIGKILL and
    /// waits up to `grace` more. Returns whether the group is gone.
    /// - Warning: Only once the shell has been waited for (see ``isAlive``).
    ///
    /// The group is not this process's to wait on, so this checks every 5 ms; it runs only
    /// once the shell has exited or was told to stop, never while a command runs.
    @discardableResult
    func end(grace: Duration) async -> Bool {
        guard isAlive else { return true }
        send(SIGTERM)
        if await waitUntilGone(within: grace) { return true }
        send(SIGKILL)
        return await waitUntilGone(within: grace)
    }

    private func waitUntilGone(within limit: Duration) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while isAlive {
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }

    /// Reaps group members that were orphaned to this process (see ``adoptOrphans()``).
    /// Called only after the shell itself has been waited for, so it never takes the shell's
    /// exit status from swift-subprocess.
    private func reapOrphans() {
        var status: Int32 = 0
        while waitpid(-id, &status, WNOHANG) > 0 {}
    }

    /// On Linux, makes this process the reaper of its orphaned descendants
    /// (`PR_SET_CHILD_SUBREAPER`), so that a background child left by an exited shell is
    /// this process's to collect, rather than a zombie of a PID 1 that may never reap it
    /// (as in many containers), which would look alive for ever. Elsewhere, `launchd` reaps.
    static func adoptOrphans() {
        _ = process_control_become_subreaper()
    }
}
