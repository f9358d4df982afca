import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// The package's lock for sections that call out or wait while they hold it (a body, a write
/// to the terminal, a file lock, a process's exit), which one thread may take again while
/// holding it, so that a migration body can call back into the migrator or store that is
/// running it. ``Locked`` is the other, for short sections that never call out. A recursive
/// `pthread_mutex_t` rather than `NSRecursiveLock`: every launch makes one (see ``LaunchCheck``).
///
/// ```swift
/// let lock = RecursiveLock()
/// lock.withLock { StandardStreams.write(line) }   // lines from two threads never interleave
/// ```
package final class RecursiveLock: @unchecked Sendable {
    // Safe: the mutex is only used through the platform's own thread-safe calls.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    package init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    package func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }
}
