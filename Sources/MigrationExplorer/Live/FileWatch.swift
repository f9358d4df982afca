import Foundation

/// Watches files and their folders for changes made by any process, and reports each burst
/// of changes once, as an element of an `AsyncStream`: a loop subscribes by iterating it and
/// stops by cancelling its task.
///
/// Each file's folder is watched as well as the file, so that a rename over the file (an
/// editor's save), a deletion (a device wiped) and a re-creation are seen as surely as a
/// write in place. The system says when something changes (inotify on Linux, kqueue on
/// macOS): nothing polls, and a watch with nothing changing blocks in the kernel. The events
/// of one burst (an editor's save is several) are reported as one ``FileChange`` once
/// ``quiet`` passes without another, or at the latest after ``longestBurst``.
///
/// ```swift
/// let watch = FileWatch(files: [URL(fileURLWithPath: "notes.json")])
/// let following = Task {
///     for await change in try watch.changes() { reread(change.files) }
/// }
/// // …
/// following.cancel()   // ends the watch and its thread
/// ```
public struct FileWatch: Sendable {
    /// The watched files, as given.
    public let files: [URL]
    /// How long a burst is over after its last event.
    public let quiet: Duration
    /// How long a burst that never stops may go before it is reported anyway.
    public let longestBurst: Duration

    public init(files: [URL], quiet: Duration = .milliseconds(75), longestBurst: Duration = .milliseconds(500)) {
        self.files = files
        self.quiet = quiet
        self.longestBurst = longestBurst
    }

    /// The folders watched, each with the names of the files watched in it.
    var folders: [String: Set<String>] {
        Dictionary(grouping: files.map(\.standardizedFileURL)) { $0.deletingLastPathComponent().path }
            .mapValues { Set($0.map(\.lastPathComponent)) }
    }

    /// The path, as given, of the watched file `name` in `folder`.
    func path(of name: String, in folder: String) -> String {
        files.first { $0.standardizedFileURL.deletingLastPathComponent().path == folder && $0.lastPathComponent == name }?.path
            ?? folder + "/" + name
    }

    /// The paths, as given, of the watched files in `folder`.
    func paths(in folder: String) -> [String] {
        (folders[folder] ?? []).map { path(of: $0, in: folder) }
    }

    /// Starts watching: the stream yields one ``FileChange`` per burst until its consumer's
    /// task is cancelled (or the watch ends, see ``FileChange/watchEnded``).
    /// - Throws: ``FileWatchError`` when a folder cannot be watched (it does not exist, or
    ///   the system refuses another watch or thread).
    public func changes() throws(FileWatchError) -> AsyncStream<FileChange> {
        let (stream, continuation) = AsyncStream.makeStream(of: FileChange.self, bufferingPolicy: .bufferingNewest(16))
        let watcher = try SystemFileWatcher(watch: self) { change in
            continuation.yield(change)
            if change.watchEnded { continuation.finish() }
        }
        continuation.onTermination = { _ in watcher.stop() }
        return stream
    }
}
