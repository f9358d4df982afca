#if canImport(Glibc)
import Foundation
import Glibc
import MigrationCore

/// ``FileWatch`` on Linux: one inotify instance watching each folder (entries created,
/// deleted, moved, written) and each file that exists (written, its attributes changed),
/// read on a thread of its own that blocks in `poll` until the kernel has an event or the
/// watch is stopped (a byte on a socket pair of its own, close-on-exec from the start).
final class SystemFileWatcher: Sendable {
    private let stopWriter: Int32
    private let stopped = Locked(false)

    /// Watches `watch`'s folders and files, calling `report` (on the watch's thread) once per burst.
    /// - Throws: ``FileWatchError`` when inotify, a folder's watch or the thread cannot be had.
    init(watch: FileWatch, report: @escaping @Sendable (FileChange) -> Void) throws(FileWatchError) {
        let instance = inotify_init1(Int32(IN_CLOEXEC))
        guard instance >= 0 else { throw FileWatchError(path: watch.files.first?.path ?? "", reason: Self.lastError) }
        var ends: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            let reason = Self.lastError
            close(instance)
            throw FileWatchError(path: watch.files.first?.path ?? "", reason: reason)
        }
        let reading = InotifyReading(instance: instance, stopReader: ends[0], watch: watch, report: report)
        do {
            try reading.addFolderWatches()
            try DetachedThread.start(name: "watching files") { reading.run() }
        } catch {
            reading.closeDescriptors()
            close(ends[1])
            throw error as? FileWatchError ?? FileWatchError(path: watch.files.first?.path ?? "", reason: "\(error)")
        }
        stopWriter = ends[1]
    }

    /// Ends the watch: its thread wakes, closes its descriptors and ends. Calling it again does nothing.
    func stop() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        var byte: UInt8 = 1
        _ = write(stopWriter, &byte, 1)
        close(stopWriter)
    }

    static var lastError: String { String(cString: strerror(errno)) }
}

/// The watch's thread: the inotify descriptor, what each watch descriptor stands for, and the
/// burst being gathered. Touched by that thread only (after ``addFolderWatches()``, which runs
/// before it starts).
private final class InotifyReading: @unchecked Sendable {
    private let instance: Int32
    private let stopReader: Int32
    private let watch: FileWatch
    private let report: @Sendable (FileChange) -> Void
    private let folders: [String: Set<String>]
    /// What each watch descriptor watches: a folder (`name` nil) or a file in it.
    private var watched: [Int32: (folder: String, name: String?)] = [:]

    private static let folderEvents = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_MODIFY | IN_CLOSE_WRITE | IN_ATTRIB
                                             | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
    private static let fileEvents = UInt32(IN_MODIFY | IN_CLOSE_WRITE | IN_ATTRIB)

    init(instance: Int32, stopReader: Int32, watch: FileWatch, report: @escaping @Sendable (FileChange) -> Void) {
        self.instance = instance
        self.stopReader = stopReader
        self.watch = watch
        self.report = report
        self.folders = watch.folders
    }

    func addFolderWatches() throws(FileWatchError) {
        for folder in folders.keys {
            let descriptor = inotify_add_watch(instance, folder, Self.folderEvents)
            guard descriptor >= 0 else { throw FileWatchError(path: folder, reason: SystemFileWatcher.lastError) }
            watched[descriptor] = (folder, nil)
        }
        addFileWatches()
    }

    /// Watches each file that exists now (a file renamed over the watched one is a new file);
    /// a file that does not exist is seen through its folder.
    private func addFileWatches() {
        for (folder, names) in folders {
            for name in names {
                let descriptor = inotify_add_watch(instance, folder + "/" + name, Self.fileEvents)
                if descriptor >= 0 { watched[descriptor] = (folder, name) }
            }
        }
    }

    func closeDescriptors() {
        close(instance)
        close(stopReader)
    }

    /// Blocks until an event or the stop; gathers a burst and reports it when quiet.
    func run() {
        defer { closeDescriptors() }
        var burst: (files: Set<String>, started: ContinuousClock.Instant, last: ContinuousClock.Instant, ended: Bool)?
        var descriptors = [pollfd(fd: instance, events: Int16(POLLIN), revents: 0), pollfd(fd: stopReader, events: Int16(POLLIN), revents: 0)]
        while true {
            var timeout: Int32 = -1
            if let burst {
                let due = min(burst.last + watch.quiet, burst.started + watch.longestBurst)
                timeout = Int32(max(0, (due - .now).milliseconds))
            }
            let ready = poll(&descriptors, 2, timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if descriptors[1].revents != 0 { return }
            if ready == 0, let gathered = burst {
                report(FileChange(files: gathered.files, watchEnded: gathered.ended))
                if gathered.ended { return }
                burst = nil
                addFileWatches()
                continue
            }
            guard descriptors[0].revents != 0 else { continue }
            let (files, ended) = readEvents()
            guard !files.isEmpty || ended else { continue }
            let now = ContinuousClock.now
            burst = (files.union(burst?.files ?? []), burst?.started ?? now, now, ended || burst?.ended == true)
        }
    }

    /// Reads what the kernel has: the watched files touched, and whether a folder went.
    private func readEvents() -> (files: Set<String>, ended: Bool) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let count = buffer.withUnsafeMutableBytes { read(instance, $0.baseAddress, $0.count) }
        guard count > 0 else { return ([], false) }
        var files: Set<String> = []
        var ended = false
        var offset = 0
        let header = MemoryLayout<inotify_event>.size
        while offset + header <= count {
            let event = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self) }
            let nameBytes = buffer[(offset + header)..<(offset + header + Int(event.len))].prefix { $0 != 0 }
            offset += header + Int(event.len)
            if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                files.formUnion(watch.files.map(\.path))
                continue
            }
            guard let target = watched[event.wd] else { continue }
            if event.mask & UInt32(IN_IGNORED) != 0 { watched[event.wd] = nil }
            if target.name == nil, event.mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
                files.formUnion(watch.paths(in: target.folder))
                ended = true
                continue
            }
            let name = target.name ?? String(decoding: nameBytes, as: UTF8.self)
            guard folders[target.folder]?.contains(name) == true, event.mask & UInt32(IN_IGNORED) == 0 else { continue }
            files.insert(watch.path(of: name, in: target.folder))
        }
        return (files, ended)
    }
}

private extension Duration {
    var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}
#endif
