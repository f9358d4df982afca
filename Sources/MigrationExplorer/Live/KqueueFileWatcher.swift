#if canImport(Darwin)
import Darwin
import Dispatch
import Foundation

/// ``FileWatch`` on macOS: kqueue through dispatch sources, one on each folder (an entry
/// created, deleted or renamed) and one on each file that exists (written, extended, its
/// attributes changed, deleted, renamed). A burst is reported once a timer, restarted by each
/// event, fires. Everything runs on one serial queue; nothing wakes while nothing changes.
final class SystemFileWatcher: @unchecked Sendable {
    // Safe: every stored property but `queue`, `watch`, `folders` and `report` is touched on
    // `queue` only.
    private let queue = DispatchQueue(label: "watching files")
    private let watch: FileWatch
    private let folders: [String: Set<String>]
    private let report: @Sendable (FileChange) -> Void
    private var folderSources: [DispatchSourceFileSystemObject] = []
    private var fileSources: [String: DispatchSourceFileSystemObject] = [:]
    private var burst: (files: Set<String>, started: DispatchTime, ended: Bool)?
    private var flush: DispatchWorkItem?
    private var stopped = false

    /// Watches `watch`'s folders and files, calling `report` (on the watch's queue) once per burst.
    /// - Throws: ``FileWatchError`` when a folder cannot be opened.
    init(watch: FileWatch, report: @escaping @Sendable (FileChange) -> Void) throws(FileWatchError) {
        self.watch = watch
        self.folders = watch.folders
        self.report = report
        var opened: [(folder: String, descriptor: Int32)] = []
        for folder in folders.keys {
            let descriptor = open(folder, O_EVTONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                let reason = String(cString: strerror(errno))
                opened.forEach { close($0.descriptor) }
                throw FileWatchError(path: folder, reason: reason)
            }
            opened.append((folder, descriptor))
        }
        queue.sync {
            for (folder, descriptor) in opened {
                let source = DispatchSource.makeFileSystemObjectSource(fileDescriptor: descriptor, eventMask: [.write, .delete, .rename], queue: queue)
                source.setEventHandler { [weak self] in
                    guard let self else { return }
                    self.gather(self.watch.paths(in: folder), ended: !source.data.isDisjoint(with: [.delete, .rename]))
                }
                source.setCancelHandler { close(descriptor) }
                source.resume()
                folderSources.append(source)
            }
            addFileSources()
        }
    }

    /// Ends the watch: every source is cancelled (closing its descriptor). Calling it again does nothing.
    func stop() {
        queue.async { [self] in
            guard !stopped else { return }
            stopped = true
            flush?.cancel()
            folderSources.forEach { $0.cancel() }
            fileSources.values.forEach { $0.cancel() }
            fileSources = [:]
        }
    }

    /// Opens a source on each watched file that exists and has none (a file renamed over the
    /// watched one is a new file; a missing one is seen through its folder).
    private func addFileSources() {
        for (folder, names) in folders {
            for name in names where fileSources[folder + "/" + name] == nil {
                let path = folder + "/" + name
                let descriptor = open(path, O_EVTONLY | O_CLOEXEC)
                guard descriptor >= 0 else { continue }
                let source = DispatchSource.makeFileSystemObjectSource(fileDescriptor: descriptor,
                                                                       eventMask: [.write, .extend, .attrib, .delete, .rename, .link], queue: queue)
                source.setEventHandler { [weak self] in
                    guard let self else { return }
                    if !source.data.isDisjoint(with: [.delete, .rename]) {
                        source.cancel()
                        self.fileSources[path] = nil
                    }
                    self.gather([self.watch.path(of: name, in: folder)], ended: false)
                }
                source.setCancelHandler { close(descriptor) }
                source.resume()
                fileSources[path] = source
            }
        }
    }

    /// Adds `files` to the burst and (re)starts the timer that reports it.
    private func gather(_ files: [String], ended: Bool) {
        guard !stopped else { return }
        let now = DispatchTime.now()
        let started = burst?.started ?? now
        burst = (Set(files).union(burst?.files ?? []), started, ended || burst?.ended == true)
        flush?.cancel()
        let item = DispatchWorkItem { [weak self] in self?.reportBurst() }
        flush = item
        let quietEnd = now + .nanoseconds(Int(watch.quiet.nanoseconds))
        let latest = started + .nanoseconds(Int(watch.longestBurst.nanoseconds))
        queue.asyncAfter(deadline: min(quietEnd, latest), execute: item)
    }

    private func reportBurst() {
        guard !stopped, let gathered = burst else { return }
        burst = nil
        flush = nil
        report(FileChange(files: gathered.files, watchEnded: gathered.ended))
        if gathered.ended {
            stopped = true
            folderSources.forEach { $0.cancel() }
            fileSources.values.forEach { $0.cancel() }
            fileSources = [:]
        } else {
            addFileSources()
        }
    }
}

private extension Duration {
    var nanoseconds: Int64 { components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000 }
}
#endif
