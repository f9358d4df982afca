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

        /// Whether a migration at `version` on `track` surely does not run with the app at
        /// `app` under `policy`, judged by ``MigrationRule`` on these marks alone. `false` when
        /// the full check must decide: a mark read loosely (which it reports) or unusable, or
        /// no marks under the baseline policy.
        func surelySkips(_ version: Version, on track: MigrationTrack, app: Version, policy: FreshInstallPolicy) -> Bool {
            guard marks.looseMarks.isEmpty, !MigrationRule.mayNeedBaseline(marks: state, policy: policy) else { return false }
            do { return try !marks.shouldRun(version, on: track, app: app) } catch { return false }
        }

        /// Whether `step` may be due with the app at `app` under `policy`, by ``MigrationRule``
        /// on these marks (and the history they were read with).
        /// - Throws: ``MigrationStateError`` when the mark `step` is judged by is unusable.
        func mayBeDue(_ step: BlockStep, app: Version?, policy: FreshInstallPolicy) throws(MigrationStateError) -> Bool {
            if MigrationRule.mayNeedBaseline(marks: state, policy: policy) { return true }
            return try step.isDue(marks: marks, history: state.history, app: app)
        }
    }

    private struct Slot {
        /// Bumped by every change: an entry read before a change cannot be cached after it.
        var generation: UInt64 = 0
        var entry: Entry?
        /// Whether every change to the records now reaches this cache; until then nothing is cached.
        var isWatched: Bool
        /// How many times the marks were read while unwatched.
        var unwatchedLoads = 0
    }

    private let slot: Locked<Slot>

    /// A cache that caches only once ``watch()`` says every change reaches it when `watched`
    /// is false (`UserDefaults`, until its change observer is in place).
    init(watched: Bool = true) {
        slot = Locked(Slot(isWatched: watched))
    }

    /// The cached marks if nothing changed and `stamp` still matches, else what `load` reads
    /// now (then cached). An unwatched cache calls `startWatching` on its second load, so that
    /// a launch that reads the marks once never pays for what watching costs.
    func marks(
        stamp: FileStamp? = nil, startWatching: () -> Void = {}, load: () throws -> MigrationState
    ) rethrows -> Entry {
        let (generation, cached) = slot.withLock { ($0.generation, $0.entry) }
        if let cached, cached.stamp == stamp { return cached }
        let state = try load()
        let fresh = Entry(state: state, marks: RecordedMarks(state), stamp: stamp)
        let isSecondUnwatchedLoad = slot.withLock { slot in
            guard slot.isWatched else {
                slot.unwatchedLoads += 1
                return slot.unwatchedLoads == 2
            }
            if slot.generation == generation { slot.entry = fresh }
            return false
        }
        if isSecondUnwatchedLoad { startWatching() }
        return fresh
    }

    /// `body` on the cached marks, under the cache's lock (so `body` must not call out); `nil`
    /// when none are cached. For marks that need no stamp: what the launch-time check reads.
    @inline(__always)
    func withCachedEntry<T>(_ body: (Entry) -> T) -> T? {
        slot.withLock { slot in
            guard let entry = slot.entry else { return nil }
            return body(entry)
        }
    }

    /// Caches `state` (its marks) as what the records hold now, at `stamp`: the caller has
    /// just written them, holding the resource.
    func remember(_ state: MigrationState, stamp: FileStamp? = nil) {
        let entry = Entry(state: state, marks: RecordedMarks(state), stamp: stamp)
        slot.withLock {
            $0.generation &+= 1
            $0.entry = $0.isWatched ? entry : nil
        }
    }

    /// Forgets the cached marks: the records changed.
    func invalidate() {
        slot.withLock {
            $0.generation &+= 1
            $0.entry = nil
        }
    }

    /// Starts caching: every change to the records now reaches ``invalidate()``.
    func watch() {
        slot.withLock {
            $0.generation &+= 1
            $0.entry = nil
            $0.isWatched = true
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
