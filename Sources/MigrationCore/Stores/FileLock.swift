import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A process's hold on an advisory `flock`, shared by every thread of the process: the first
/// thread in takes the lock, the last one out releases it. `flock` belongs to an open file,
/// so two descriptors on one file in one process would exclude each other; one `FileLock`
/// per lock file per process (see ``StoreResource``) keeps that from happening.
final class FileLock: @unchecked Sendable {
    struct LockError: Error, CustomStringConvertible {
        let description: String
        /// Set when the lock was held by another process for longer than this one would wait.
        var busy: (patience: LockPatience, holder: LockHolder?)? = nil
        /// Set when a ``SharedExclusiveLock`` was held by another process for longer than this
        /// one would wait: the reason, as the lock gave it.
        var busyReason: String? = nil

        init(description: String) { self.description = description }

        /// A ``SharedExclusiveLock`` gave up waiting (see ``SharedExclusiveLockBusy``).
        init(busy reason: String) {
            description = reason
            busyReason = reason
        }

        /// This process gave up waiting for another one's lock (see ``LockWaiting``).
        init(gaveUp patience: LockPatience, holder: LockHolder?) {
            description = "held by \(holder?.description ?? "another process")"
            busy = (patience, holder)
        }

        /// The store's error for this one: ``MigrationStoreError/Problem/busy(_:)`` when this
        /// process gave up waiting, otherwise ``MigrationStoreError/Problem/unlockable(_:)``.
        func storeError(at location: String) -> MigrationStoreError {
            if let busyReason { return MigrationStoreError(location: location, problem: .busy(busyReason)) }
            guard let busy else { return MigrationStoreError(location: location, problem: .unlockable(description)) }
            return MigrationStoreError(location: location, problem: .busy("\(description); \(busy.patience.gaveUp)"))
        }
    }

    let path: String
    // Safe: `descriptor` and `holders` are only touched while `mutex` is held, which a wait
    // for another process's hold holds too, so the threads of this process wait behind it.
    private let mutex = RecursiveLock()
    private var descriptor: Int32 = -1
    private var holders = 0

    init(path: String) { self.path = path }

    /// Runs `body` while this process holds the lock, waiting for another process's hold as
    /// `policy` allows. Threads of one process share the hold.
    func withLock<T>(waiting policy: LockWaiting.Policy, _ body: () throws -> T) throws -> T {
        try enter(waiting: policy)
        defer { leave() }
        return try body()
    }

    private func enter(waiting policy: LockWaiting.Policy) throws(LockError) {
        try mutex.withLock { () throws(LockError) in
            if holders == 0 {
                if descriptor < 0 {
                    descriptor = SideFile.openLock(path, O_RDWR)
                    guard descriptor >= 0 else { throw LockError(description: SideFile.openFailure(path)) }
                }
                try LockWaiting.take(descriptor, LOCK_EX, path: path, waiting: policy)
            }
            holders += 1
        }
    }

    private func leave() {
        mutex.withLock {
            holders -= 1
            if holders == 0 { flock(descriptor, LOCK_UN) }
        }
    }

    /// The locked descriptor while this process holds the lock (some thread is inside
    /// ``withLock(_:)``), for a child process to inherit; `nil` otherwise.
    var heldDescriptor: Int32? {
        mutex.withLock { holders > 0 ? descriptor : nil }
    }
}

func errnoText(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
}
