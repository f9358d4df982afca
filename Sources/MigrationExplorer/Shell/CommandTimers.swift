import Foundation

/// The timers of manifest commands (a `timeout`, the grace before SIGKILL), on a serial queue
/// of their own rather than a task's sleep: a timer fires on time even when every thread of the
/// concurrency pool is busy, and needs no thread while it waits.
///
/// ```swift
/// let timer = CommandTimers.after(.seconds(30)) { running.stop(reason: "timed out after 30 s") }
/// timer.cancel()   // the command ended first
/// ```
enum CommandTimers {
    private static let queue = DispatchQueue(label: "manifest command timers")

    /// A timer that has not fired yet may be cancelled.
    struct Timer: @unchecked Sendable {
        // Safe: a work item is only cancelled here, which Dispatch allows from any thread.
        fileprivate let item: DispatchWorkItem

        /// The action does not run, unless it already has.
        func cancel() { item.cancel() }
    }

    /// Calls `action` once `delay` has passed, unless the returned timer is cancelled first. A
    /// delay past a century never comes.
    @discardableResult
    static func after(_ delay: Duration, _ action: @escaping @Sendable () -> Void) -> Timer {
        let item = DispatchWorkItem(block: action)
        let seconds = max(0, delay.inSeconds)
        if seconds < 3.2e9 { queue.asyncAfter(deadline: .now() + seconds, execute: item) }
        return Timer(item: item)
    }
}
