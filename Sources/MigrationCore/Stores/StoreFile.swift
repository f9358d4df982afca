import Foundation

/// The file a file-based store keeps its records in, and what every such store does with it:
/// resolve the path, share one lock per real file, read the bytes, replace them atomically and
/// prove beforehand that they can be replaced.
///
/// Every store on one real file (a JSON store's domains, a preferences plist's) shares one
/// ``StoreResource``, so one in-process lock and one `flock` on `<file>.lock`, and one
/// ``RunLock`` on `<file>.run.lock` that keeps runs apart from resets.
struct StoreFile: Sendable {
    /// The path as given.
    let url: URL
    /// ``url`` with every symbolic link resolved.
    var fileURL: URL { URL(fileURLWithPath: realPath) }
    /// ``url``'s path as given.
    let path: String
    /// ``path`` with every symbolic link resolved.
    let realPath: String
    /// The store's ``MigrationStore/location``, for errors.
    let location: String
    let resource: StoreResource
    /// How long the store waits for another process's lock, and whom it tells.
    let waiting: LockWaiting.Policy

    init(url: URL, path: String, location: String, waiting: LockWaiting.Policy) {
        self.url = url
        self.waiting = waiting
        self.path = path
        self.location = location
        realPath = RealPath.of(path)
        resource = StoreResource.shared("file:" + realPath, lockFile: realPath + ".lock", runLockFile: realPath + ".run.lock")
    }

    /// The file's bytes; `nil` when there is no file yet.
    func read() throws(MigrationStoreError) -> Data? {
        do { return try RegularFile.contents(at: realPath) } catch {
            throw MigrationStoreError(location: location, problem: .unreadable(error.reason(for: realPath)))
        }
    }

    /// Replaces the file with `data`, atomically (see ``AtomicFile``). Call it holding the lock.
    func replace(with data: Data) throws(MigrationStoreError) {
        do { try AtomicFile.replace(fileURL, with: data) } catch {
            throw MigrationStoreError(location: location, problem: .unwritable(error.description))
        }
    }

    /// The stamp of the file as it is now, for the marks cache.
    var stamp: FileStamp? { FileStamp.of(realPath) }

    /// Runs `body` holding the records, in this process and against other processes.
    func withRecords<T>(_ body: () throws -> T) throws -> T {
        try locked { try resource.withRecords(waiting: waiting, body) }
    }

    /// Runs `body` holding the block named `block` (see ``StoreResource/withBlock(_:_:)``).
    func withBlock<T>(_ block: String, _ body: (_ alreadyRunning: Bool) throws -> T) throws -> T {
        try locked { try resource.withBlock(block, waiting: waiting, body) }
    }

    /// Checks that the file opens for writing, then writes as many bytes as the records take,
    /// plus room to grow, beside it and removes them again: a read-only file or folder, a
    /// missing permission or a full disk shows up here, before a body runs, rather than after it.
    func prepareToWrite() throws(MigrationStoreError) {
        if let problem = WriteAccess.problem(writing: realPath, what: "the file") {
            throw MigrationStoreError(location: location, problem: .readOnly(problem))
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: realPath)[.size] as? Int) ?? 0
        do { try AtomicFile.probe(fileURL, bytes: size + 64 * 1024, room: size + 64 * 1024) } catch {
            throw MigrationStoreError(location: location, problem: .unwritable(error.description))
        }
    }

    /// Proves that this process may write the file (a read-only file counts as one that cannot
    /// be written, though its folder would let it be replaced), its lock file and its folder,
    /// and that nothing stands at the names of its lock files and temporary file (see ``SideFile``),
    /// without taking the lock or leaving anything behind (see ``WriteAccess``).
    func checkWritable() throws(MigrationStoreError) {
        try refuseAnythingButAFile()
        // What another user planted at a name the store writes or locks (a link; in a shared
        // folder, a lock file they could hold every run off with): said before anything runs,
        // not when the first step takes its lock.
        for side in [realPath + ".lock", realPath + ".run.lock", AtomicFile.temporaryPath(for: fileURL)] {
            if let planted = SideFile.planted(at: side) { throw MigrationStoreError(location: location, problem: .unwritable(planted)) }
        }
        let files = [(path: realPath, what: "the file"), (path: realPath + ".lock", what: "the lock file")]
        if let problem = WriteAccess.problem(files: files, folder: fileURL.deletingLastPathComponent().path) {
            throw MigrationStoreError(location: location, problem: .readOnly(problem))
        }
    }

    private func locked<T>(_ body: () throws -> T) throws -> T {
        try refuseAnythingButAFile()
        do { return try body() } catch let error as FileLock.LockError {
            throw error.storeError(at: location)
        }
    }

    /// Refuses a directory, a FIFO or a device where the file should be, before anything
    /// reads, locks or replaces it.
    private func refuseAnythingButAFile() throws(MigrationStoreError) {
        if let kind = FileKind.of(realPath), kind != .regularFile {
            throw MigrationStoreError(location: location, problem: .unreadable(RegularFile.ReadError.notAFile(kind).reason(for: realPath)))
        }
    }
}
