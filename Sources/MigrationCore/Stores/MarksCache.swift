import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The marks last read from a resource, parsed, so that a launch-time check with nothing to do
/// reads and parses nothing. Shared by every store object on the resource.
///
/// An entry is used only while nothing can have changed the records: every save through a
/// store on the resource in this process drops it, so does `UserDefaults.didChangeNotification`
/// (which Apple's Foundation posts for every change made in the process, `[MTMigration reset]`
/// included; swift-corelibs-foundation on Linux posts it only for `removePersistentDomain`),
/// and a file store compares the file's identity, size and modification time (one `stat`) on
/// every call, so a change made by another process is seen too.
final class MarksCache: Sendable {
    /// The marks as read, and parsed. A class, so that handing it out of the lock costs one
    /// retain rather than one per string.
    final class Entry: Sendable {
        let state: MigrationState
        let marks: RecordedMarks
        let stamp: FileStamp?

        init(state: MigrationState, marks: RecordedMarks, stamp: FileStamp?) {
            self.state = state
            self.marks = marks
            self.stamp = stamp
        }
    }

    /// The entry, and a generation that every change bumps: an entry read before a change
    /// cannot be cached after it.
    private let slot = Locked<(generation: UInt64, entry: Entry?)>((0, nil))

    /// The cached marks if nothing changed and `stamp` still matches, else what `load` reads
    /// now (then cached).
    func marks(stamp: FileStamp? = nil, load: () throws -> MigrationState) rethrows -> Entry {
        let (generation, cached) = slot.withLock { $0 }
        if let cached, cached.stamp == stamp { return cached }
        let state = try load()
        let fresh = Entry(state: state, marks: RecordedMarks(state), stamp: stamp)
        slot.withLock { if $0.generation == generation { $0.entry = fresh } }
        return fresh
    }

    /// Caches `state` (its marks) as what the records hold now, at `stamp`: the caller has
    /// just written them, holding the resource.
    func remember(_ state: MigrationState, stamp: FileStamp? = nil) {
        let entry = Entry(state: state, marks: RecordedMarks(state), stamp: stamp)
        slot.withLock { $0 = ($0.generation &+ 1, entry) }
    }

    /// Forgets the cached marks: the records changed.
    func invalidate() {
        slot.withLock { $0 = ($0.generation &+ 1, nil) }
    }
}

/// A store of this package, which keeps its marks in a ``MarksCache``.
protocol MarksCaching: MigrationStore {
    /// The current marks, parsed, from the cache when nothing changed them.
    func cachedMarks() throws -> MarksCache.Entry
}

extension MigrationStore {
    /// A reader of the current marks, parsed: the store's cache for this package's stores,
    /// otherwise ``MigrationStore/loadMarks()`` parsed on each call.
    var marksReader: @Sendable () throws -> MarksCache.Entry {
        if let caching = self as? any MarksCaching { return { try caching.cachedMarks() } }
        return { [self] in
            let state = try loadMarks()
            return MarksCache.Entry(state: state, marks: RecordedMarks(state), stamp: nil)
        }
    }
}

/// What identifies one version of a file: device, inode, size and modification time. An atomic
/// replacement gives a new inode, so any write by any process changes the stamp.
struct FileStamp: Equatable, Sendable {
    let device, inode: UInt64
    let size: Int64
    let seconds, nanoseconds: Int64

    /// The stamp of the file at `path`, or `nil` when there is none.
    static func of(_ path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = info.st_mtimespec
        #else
        let modified = info.st_mtim
        #endif
        return FileStamp(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                         seconds: Int64(modified.tv_sec), nanoseconds: Int64(modified.tv_nsec))
    }
}
