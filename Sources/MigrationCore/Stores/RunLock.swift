import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps the runs of one store apart from the changes that replace its marks wholesale (a
/// reset, a `set`): any number of runs may go on together, or one change alone. A change waits
/// for every run on the store to end, and no run starts while a change is being made, so a
/// change lands before a run plans or after its last step, never between two steps.
///
/// In this process it counts the runs; across processes, with a lock file, a run holds a
/// shared `flock` on it and a change an exclusive one (or the same through another
/// ``SharedExclusiveLock``, such as a database's). The lock file may be the store's own file
/// (a SQLite database on Linux, whose own locks are `fcntl` locks, which `flock` leaves alone).
/// One `RunLock` per store resource per process (see ``StoreResource``), so the threads of a
/// process share one descriptor, kept open as long as the `RunLock` lives (for a database
/// file, closing it would drop the process's `fcntl` locks on it). Unlike a thread's lock, a
/// hold may end on another thread than the one that took it: an asynchronous run ends it
/// wherever its task resumes.
package final class RunLock: @unchecked Sendable {
    // Safe: `runs`, `changing` and `descriptor` are only touched while `condition` is held.
    private let condition = NSCondition()
    private var runs = 0
    private var changing = false
    private var descriptor: Int32 = -1
    /// The lock file shared with other processes; `nil`: this process only, or ``across``.
    let path: String?
    /// The mode ``path`` is created with when it is not there (less the umask).
    private let creationMode: mode_t
    /// The hold shared with other processes when it is not a lock file.
    private let across: (any SharedExclusiveLock)?

    /// The runs the current task (or thread) is inside, by lock: a change made from inside one
    /// of them would wait for itself.
    @TaskLocal static var inside: Set<ObjectIdentifier> = []

    /// A lock on the file at `path`, created when missing with `creationMode`: by default a
    /// side file its owner alone may open; the store's own mode when `path` is the store itself.
    ///
    /// ```swift
    /// let sideFile = RunLock(path: "state.json.run.lock")
    /// let database = RunLock(path: "app.sqlite", creationMode: 0o644)
    /// ```
    package init(path: String?, creationMode: mode_t = 0o600) {
        self.path = path
        self.creationMode = creationMode
        self.across = nil
    }

    /// A lock whose hold across processes (and machines) is `across`'s.
    package init(across: any SharedExclusiveLock) {
        self.path = nil
        self.creationMode = 0o600
        self.across = across
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Runs `body` as one run of the store at `location`: a change waits until it returns,
    /// and it waits for a change being made (in another process, as `policy` allows).
    /// - Throws: ``MigrationStoreError`` when the lock file cannot be opened or locked, or
    ///   what `body` throws.
    package func withRun<T>(of location: String, waiting policy: LockWaiting.Policy, _ body: () throws -> T) throws -> T {
        try enter(location) { try enterRun(waiting: policy) }
        defer { leaveRun() }
        return try Self.$inside.withValue(Self.inside.union([ObjectIdentifier(self)])) { try body() }
    }

    /// ``withRun(of:_:)`` for an asynchronous run: the wait for a change happens on a thread
    /// of its own, so no thread of the cooperative pool blocks.
    nonisolated(nonsending) package func withRun<T>(
        of location: String, waiting policy: LockWaiting.Policy, _ body: nonisolated(nonsending) () async throws -> T
    ) async throws -> T {
        try await withCheckedThrowingContinuation { (entered: CheckedContinuation<Void, any Error>) in
            do {
                try DetachedThread.start(name: "waiting for a run lock") {
                    do {
                        try self.enter(location) { try self.enterRun(waiting: policy) }
                        entered.resume()
                    } catch {
                        entered.resume(throwing: error)
                    }
                }
            } catch {
                entered.resume(throwing: error)
            }
        }
        defer { leaveRun() }
        return try await Self.$inside.withValue(Self.inside.union([ObjectIdentifier(self)])) { try await body() }
    }

    /// Runs `body` once no run of the store at `location` is going on, in this process or
    /// (with a lock file) another one, whose runs it waits for as `policy` allows; no run
    /// starts until it returns. `onWait` is called once, before waiting, when there is a run to
    /// wait for; it may throw to give up instead.
    /// - Throws: what `onWait` or `body` throws, or ``MigrationStoreError`` when the lock file
    ///   cannot be opened or locked, or when the current task is inside a run of the same
    ///   store, which would wait for itself.
    package func withoutRuns<T>(of location: String, waiting policy: LockWaiting.Policy, onWait: () throws -> Void, _ body: () throws -> T) throws -> T {
        try enter(location) {
            if Self.inside.contains(ObjectIdentifier(self)) {
                throw FileLock.LockError(description: "a reset or set from inside a run of the same store would wait for that run forever; make it after the run")
            }
            try enterChange(waiting: policy, onWait: onWait)
        }
        defer { leaveChange() }
        return try body()
    }

    /// Calls `enter`, reporting a lock that cannot be taken as the store's error.
    private func enter(_ location: String, _ enter: () throws -> Void) throws {
        do { try enter() } catch let error as FileLock.LockError {
            throw error.storeError(at: location)
        }
    }

    private func enterRun(waiting policy: LockWaiting.Policy) throws(FileLock.LockError) {
        condition.lock()
        defer { condition.unlock() }
        while changing { condition.wait() }
        // Held while taking the shared lock: no other thread of this process starts a run
        // before the process holds it, or a change while it is being taken.
        if runs == 0 { try lockFile(LOCK_SH, waiting: policy) }
        runs += 1
    }

    private func leaveRun() {
        condition.lock()
        defer { condition.unlock() }
        runs -= 1
        if runs == 0 {
            unlockFile()
            condition.broadcast()
        }
    }

    private func enterChange(waiting policy: LockWaiting.Policy, onWait: () throws -> Void) throws {
        condition.lock()
        defer { condition.unlock() }
        var told = false
        if runs > 0 || changing {
            try onWait()
            told = true
            while runs > 0 || changing { condition.wait() }
        }
        let free = try lockFile(LOCK_EX | LOCK_NB, waiting: policy)
        if !free {
            if !told { try onWait() }
            try lockFile(LOCK_EX, waiting: policy)
        }
        changing = true
    }

    private func leaveChange() {
        condition.lock()
        defer { condition.unlock() }
        changing = false
        unlockFile()
        condition.broadcast()
    }

    /// Takes the lock file's `flock` in `operation`'s mode; `false` when a non-blocking
    /// attempt found it held; a blocking one waits as `policy` allows (see ``LockWaiting``),
    /// and may give up. Without a lock file there is nothing to take; a lock of its own
    /// (``across``) waits as it was made to.
    @discardableResult
    private func lockFile(_ operation: Int32, waiting policy: LockWaiting.Policy) throws(FileLock.LockError) -> Bool {
        if let across {
            do { return try across.lock(exclusive: operation & LOCK_EX != 0, wait: operation & LOCK_NB == 0) } catch let busy as SharedExclusiveLockBusy {
                throw FileLock.LockError(busy: busy.description)
            } catch {
                throw FileLock.LockError(description: String(describing: error))
            }
        }
        guard let path else { return true }
        if descriptor < 0 {
            descriptor = SideFile.openLock(path, O_RDWR, mode: creationMode)
            // A lock file another user made (or in a folder this one cannot write) locks as well
            // read-only; where there is none and none can be made, this process can write
            // nothing there either, so no change of its can land inside another's run.
            if descriptor < 0, [EACCES, EPERM, EROFS].contains(errno) {
                descriptor = SideFile.openLock(path, O_RDONLY)
                if descriptor < 0, errno == ENOENT { return true }
            }
            guard descriptor >= 0 else { throw FileLock.LockError(description: SideFile.openFailure(path)) }
        }
        if operation & LOCK_NB == 0 {
            try LockWaiting.take(descriptor, operation, path: path, waiting: policy)
            return true
        }
        var result: Int32
        repeat { result = flock(descriptor, operation) } while result != 0 && errno == EINTR
        if result == 0 { return true }
        if errno == EWOULDBLOCK { return false }
        throw FileLock.LockError(description: "flock \(path): \(errnoText())")
    }

    private func unlockFile() {
        across?.unlock()
        if descriptor >= 0 { flock(descriptor, LOCK_UN) }
    }

    /// The lock for the runs of a store that keeps no ``RunLock`` of its own, by its location:
    /// its runs and changes in this process are kept apart, not those of other processes.
    static func shared(forLocation location: String) -> RunLock {
        byLocation.withLock { locks in
            if let existing = locks[location] { return existing }
            let created = RunLock(path: nil)
            locks[location] = created
            return created
        }
    }

    /// The lock for the runs of a store that names its ``RunExclusion``: one per lock file (or
    /// per location, for a lock of the store's own) in this process, so that the store objects
    /// on the same records share it.
    static func shared(_ exclusion: RunExclusion, location: String) -> RunLock {
        let key: String
        switch exclusion.kind {
        case .lockFile(let path): key = "file\u{0}" + path
        case .lock: key = "lock\u{0}" + location
        }
        return byLocation.withLock { locks in
            if let existing = locks[key] { return existing }
            let created: RunLock
            switch exclusion.kind {
            case .lockFile(let path): created = RunLock(path: path)
            case .lock(let lock): created = RunLock(across: lock)
            }
            locks[key] = created
            return created
        }
    }

    private static let byLocation = Locked<[String: RunLock]>([:])
}

/// A lock that other processes share, held shared by runs and exclusive by a reset, for a
/// store whose records are not in a file (a database's advisory locks): see
/// ``RunExclusion/lock(_:)``. Its calls come one at a time, on a thread that may block.
///
/// ```swift
/// struct RecordsFileLock: SharedExclusiveLock {
///     let descriptor: Int32   // one open file, kept for the store's life
///     func lock(exclusive: Bool, wait: Bool) throws -> Bool {
///         flock(descriptor, (exclusive ? LOCK_EX : LOCK_SH) | (wait ? 0 : LOCK_NB)) == 0
///     }
///     func unlock() { flock(descriptor, LOCK_UN) }
/// }
/// ```
public protocol SharedExclusiveLock: Sendable {
    /// Takes the lock, shared or exclusive; with `wait` false, returns `false` at once when
    /// another process holds it in a mode that excludes this one.
    /// - Throws: an error saying why it cannot be taken.
    func lock(exclusive: Bool, wait: Bool) throws -> Bool
    /// Lets the lock go.
    func unlock()
}

/// A ``SharedExclusiveLock`` another process held for longer than this one would wait; its
/// description names the holder and the wait: "held by web-1, pid 4121, since …; did not wait".
///
/// ```swift
/// struct HeldTooLong: SharedExclusiveLockBusy {
///     var description: String { "held by web-1, pid 4121; gave up after 30 s" }
/// }
/// ```
public protocol SharedExclusiveLockBusy: Error, CustomStringConvertible {}
