import Foundation

/// One burst of changes to watched files, as a ``FileWatch`` reports it: an editor's save
/// (a temporary file renamed over the watched one), a write in place, a deletion or a
/// re-creation, the events of the burst coalesced into one.
///
/// ```swift
/// for await change in try FileWatch(files: [store]).changes() {
///     print("changed: \(change.files.sorted().joined(separator: ", "))")
/// }
/// ```
public struct FileChange: Sendable, Equatable {
    /// The paths of the watched files the burst touched (as given to the watch).
    public let files: Set<String>
    /// Whether the watch ends with this change: the folder itself was deleted or moved, so
    /// nothing in it can be watched any more.
    public let watchEnded: Bool

    public init(files: Set<String>, watchEnded: Bool = false) {
        self.files = files
        self.watchEnded = watchEnded
    }
}

/// A file that cannot be watched: its folder does not exist or cannot be read, or the system
/// gives no more watches.
///
/// ```swift
/// do { _ = try FileWatch(files: [URL(fileURLWithPath: "/gone/state.json")]).changes() } catch {
///     print(error)   // cannot follow changes to /gone: No such file or directory
/// }
/// ```
public struct FileWatchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The folder or file that could not be watched.
    public let path: String
    public let reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "cannot follow changes to \(path): \(reason)" }
}
