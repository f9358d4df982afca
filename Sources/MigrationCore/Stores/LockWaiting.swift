import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How this process waits for a store's lock file that another process holds: by default
/// silently and as long as it takes, as an app's launch must. A front end that shows the wait
/// (the command line's `run --wait SECONDS`) sets ``policy`` once, before it opens a store.
///
/// ```swift
/// LockWaiting.policy.withLock {
///     $0 = .init(patience: .seconds(30)) { change in
///         if case .waiting(let holder) = change { print("held by \(holder?.description ?? "another process")") }
///     }
/// }
/// ```
package enum LockWaiting {
    /// What to do when a lock is found held by another process.
    package struct Policy: Sendable {
        /// How long to wait before giving up; `nil`: as long as it takes.
        package var patience: Duration?
        /// Called when a wait starts (with the holder, when the system names it) and when it
        /// ends with the lock taken; `nil`: nobody is told, and the holder is not looked up.
        package var onChange: (@Sendable (Change) -> Void)?

        package init(patience: Duration? = nil, onChange: (@Sendable (Change) -> Void)? = nil) {
            self.patience = patience
            self.onChange = onChange
        }
    }

    /// A wait's start or end.
    package enum Change: Sendable {
        case waiting(LockHolder?)
        case acquired
    }

    /// The policy of this process.
    package static let policy = Locked(Policy())

    /// How often a bounded wait tries the lock again.
    private static let retrySeconds = 0.05

    /// Takes `operation` (`LOCK_SH` or `LOCK_EX`) on `descriptor`, the lock file `path`, at
    /// once when it is free, otherwise after telling the policy and waiting as it says.
    /// - Throws: ``FileLock/LockError`` when the lock cannot be taken, or (``FileLock/LockError/holder``
    ///   set) when the policy's patience ran out first.
    static func take(_ descriptor: Int32, _ operation: Int32, path: String) throws(FileLock.LockError) {
        if try attempt(descriptor, operation | LOCK_NB, path: path) { return }
        let policy = policy.value
        guard policy.onChange != nil || policy.patience != nil else {
            _ = try attempt(descriptor, operation, path: path)  // an app's launch: as it always did
            return
        }
        let holder = LockHolder.of(lockFile: path)
        policy.onChange?(.waiting(holder))
        guard let patience = policy.patience else {
            _ = try attempt(descriptor, operation, path: path)
            policy.onChange?(.acquired)
            return
        }
        let deadline = ContinuousClock.now + patience
        while ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: retrySeconds)
            if try attempt(descriptor, operation | LOCK_NB, path: path) {
                policy.onChange?(.acquired)
                return
            }
        }
        throw FileLock.LockError(gaveUpAfter: patience, holder: LockHolder.of(lockFile: path) ?? holder)
    }

    /// One `flock` call, repeated when a signal interrupts it; `false` when a non-blocking one
    /// found the lock held.
    private static func attempt(_ descriptor: Int32, _ operation: Int32, path: String) throws(FileLock.LockError) -> Bool {
        var result: Int32
        repeat { result = flock(descriptor, operation) } while result != 0 && errno == EINTR
        if result == 0 { return true }
        if errno == EWOULDBLOCK { return false }
        throw FileLock.LockError(description: "flock \(path): \(errnoText())")
    }
}
