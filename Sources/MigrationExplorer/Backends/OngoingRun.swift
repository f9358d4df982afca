import Foundation

/// A run going on now on the real store, as a store that can name it says (a PostgreSQL
/// database names the runs holding its run lock): where, which process, since when.
///
/// ```swift
/// for run in explorer.runsGoingOn() { print(run) }   // "web-3, pid 4121, since 2026-11-25 18:02:11 UTC"
/// ```
public struct OngoingRun: Sendable, Equatable, CustomStringConvertible {
    /// The host the run's process is on.
    public let host: String
    /// The run's process.
    public let pid: Int32
    /// When it took the store's run lock.
    public let since: Date
    /// "web-3, pid 4121, since 2026-11-25 18:02:11 UTC".
    public let description: String
}
