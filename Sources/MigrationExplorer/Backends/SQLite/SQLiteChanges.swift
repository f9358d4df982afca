#if SQLite
import Foundation
import GRDB

/// The commits other connections make to an SQLite database, as an `AsyncStream`: the
/// database file, its `-wal` and `-journal` and their folder are watched (``FileWatch``), and
/// each burst is confirmed on a read-only connection of the source's own by
/// `PRAGMA data_version` (which changes when another connection commits), so that a
/// checkpoint or a read that touched the files reports nothing. The database deleted or
/// replaced by another file is reported too. Cancelling the subscribing task ends the watch.
///
/// ```swift
/// for await _ in try SQLiteChanges(database: URL(fileURLWithPath: "app.sqlite")).changes() {
///     reread()
/// }
/// ```
public struct SQLiteChanges: Sendable {
    public let database: URL

    public init(database: URL) {
        self.database = database
    }

    /// Starts watching.
    /// - Throws: ``FileWatchError`` when the database's folder cannot be watched.
    public func changes() throws(FileWatchError) -> AsyncStream<FileChange> {
        let files = ["", "-wal", "-journal"].map { URL(fileURLWithPath: database.path + $0) }
        let bursts = try FileWatch(files: files).changes()
        let (stream, continuation) = AsyncStream.makeStream(of: FileChange.self, bufferingPolicy: .bufferingNewest(16))
        // The first look is taken now, before a change the caller makes next.
        let probe = DataVersionProbe(path: database.path)
        let first = probe.read()
        let confirming = Task {
            var seen = first
            for await burst in bursts {
                let now = probe.read()
                if now != seen || now == .unknown || burst.watchEnded { continuation.yield(burst) }
                seen = now
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in confirming.cancel() }
        return stream
    }
}

/// Which database file is at the path and what `PRAGMA data_version` says of it, on one
/// connection kept open (the pragma compares with that connection's last look).
final class DataVersionProbe: @unchecked Sendable {
    // Safe: used by one task at a time, the one that starts ``SQLiteChanges`` and then only
    // the task it hands the probe to.
    enum Reading: Equatable {
        /// No database at the path.
        case missing
        /// The file could not be read as a database (being created, say): every burst counts.
        case unknown
        case version(file: FileIdentity, dataVersion: Int)
    }

    /// A file as the file system knows it: a file renamed over the path is another one.
    struct FileIdentity: Equatable {
        let device: UInt64
        let inode: UInt64
    }

    private let path: String
    private var connection: (file: FileIdentity, queue: DatabaseQueue)?

    init(path: String) {
        self.path = path
    }

    func read() -> Reading {
        var status = stat()
        guard stat(path, &status) == 0 else {
            connection = nil
            return .missing
        }
        let file = FileIdentity(device: UInt64(truncatingIfNeeded: status.st_dev), inode: UInt64(truncatingIfNeeded: status.st_ino))
        do {
            if connection?.file != file {
                var configuration = Configuration()
                configuration.readonly = true
                connection = (file, try DatabaseQueue(path: path, configuration: configuration))
            }
            guard let queue = connection?.queue, let version = try queue.read({ try Int.fetchOne($0, sql: "PRAGMA data_version") }) else {
                return .unknown
            }
            return .version(file: file, dataVersion: version)
        } catch {
            connection = nil
            return .unknown
        }
    }
}
#endif
