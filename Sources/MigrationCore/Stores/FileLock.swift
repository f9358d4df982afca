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
    }

    let path: String
    // Safe: `descriptor` and `holders` are only touched while `mutex` is held.
    private let mutex = NSLock()
    private var descriptor: Int32 = -1
    private var holders = 0

    init(path: String) { self.path = path }

    /// Runs `body` while this process holds the lock. Threads of one process share the hold.
    func withLock<T>(_ body: () throws -> T) throws -> T {
        try enter()
        defer { leave() }
        return try body()
    }

    private func enter() throws(LockError) {
        mutex.lock()
        defer { mutex.unlock() }
        if holders == 0 {
            if descriptor < 0 {
                descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
                guard descriptor >= 0 else { throw LockError(description: "open \(path): \(errnoText())") }
            }
            var result: Int32
            repeat { result = flock(descriptor, LOCK_EX) } while result != 0 && errno == EINTR
            guard result == 0 else { throw LockError(description: "flock \(path): \(errnoText())") }
        }
        holders += 1
    }

    private func leave() {
        mutex.lock()
        defer { mutex.unlock() }
        holders -= 1
        if holders == 0 { flock(descriptor, LOCK_UN) }
    }

    /// The locked descriptor while this process holds the lock (some thread is inside
    /// ``withLock(_:)``), for a child process to inherit; `nil` otherwise.
    var heldDescriptor: Int32? {
        mutex.lock()
        defer { mutex.unlock() }
        return holders > 0 ? descriptor : nil
    }
}

func errnoText(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
}
