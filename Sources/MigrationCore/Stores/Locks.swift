import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif

/// A value behind a lock, for short critical sections that never call out.
///
/// The lock is the platform's plain mutex (`os_unfair_lock` on Apple platforms, a
/// `pthread_mutex_t` elsewhere), taken without a dynamically dispatched call: it guards the
/// launch-time check, which must cost little more than parsing a version. `Mutex` from the
/// `Synchronization` module would do the same, but needs iOS 18 / macOS 15.
///
/// ```swift
/// let seen = Locked<[String]>([])
/// seen.withLock { $0.append("1.0") }   // from any thread
/// seen.value                           // ["1.0"]
/// ```
package final class Locked<Value>: @unchecked Sendable {
    // Safe: `storage` is only touched while `mutex` is held, and `body` must not re-enter. Both
    // behind pointers: a mutex must not move, and the lock already excludes what runtime
    // exclusivity checks would check on every call.
    #if canImport(Darwin)
    private let mutex = UnsafeMutablePointer<os_unfair_lock>.allocate(capacity: 1)
    #else
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    #endif
    private let storage = UnsafeMutablePointer<Value>.allocate(capacity: 1)

    package init(_ value: Value) {
        #if canImport(Darwin)
        mutex.initialize(to: os_unfair_lock())
        #else
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        #endif
        storage.initialize(to: value)
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
        #if !canImport(Darwin)
        pthread_mutex_destroy(mutex)
        #endif
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    @inline(__always)
    package func withLock<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        #if canImport(Darwin)
        os_unfair_lock_lock(mutex)
        defer { os_unfair_lock_unlock(mutex) }
        #else
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        #endif
        return try body(&storage.pointee)
    }

    /// A copy of the value as it is now.
    package var value: Value { withLock { $0 } }
}
