import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How this process waits for a lock file that another process holds: as long as the store's
/// ``Policy`` allows, telling its `onChange` when a wait starts and ends. A store is opened with
/// its policy; a front end that shows the wait (the command line's `run --wait SECONDS`) gives
/// the stores it opens one that tells it.
///
/// ```swift
/// let waiting = LockWaiting.Policy(patience: .upTo(.seconds(30))) { change in
///     if case .waiting(let holder) = change { print("held by \(holder?.description ?? "another process")") }
/// }
/// let store = FileMigrationStore(url: stateURL, waiting: waiting)
/// ```
package enum LockWaiting {
    /// What a front end does when a lock is found held by another process.
    package struct Policy: Sendable {
        /// The patience the front end gives the stores it opens.
        package var patience: LockPatience
        /// Called when a wait starts (with the holder, when the system names it) and when it
        /// ends with the lock taken; `nil`: nobody is told, and the holder is not looked up
        /// before the store gives up.
        package var onChange: (@Sendable (Change) -> Void)?

        package init(patience: LockPatience = .forever, onChange: (@Sendable (Change) -> Void)? = nil) {
            self.patience = patience
            self.onChange = onChange
        }
    }

    /// A wait's start or end.
    package enum Change: Sendable {
        case waiting(LockHolder?)
        case acquired
    }

    /// How often a bounded wait tries the lock again.
    private static let retrySeconds = 0.05

    /// Takes `operation` (`LOCK_SH` or `LOCK_EX`) on `descriptor`, the lock file `path`, at
    /// once when it is free, otherwise after telling `policy` and waiting as its patience allows.
    /// - Throws: ``FileLock/LockError`` when the lock cannot be taken, or (``FileLock/LockError/busy``
    ///   set) when the patience ran out first.
    static func take(_ descriptor: Int32, _ operation: Int32, path: String, waiting policy: Policy) throws(FileLock.LockError) {
        if try attempt(descriptor, operation | LOCK_NB, path: path) { return }
        let (patience, onChange) = (policy.patience, policy.onChange)
        guard let limit = patience.limit else {
            guard let onChange else {
                _ = try attempt(descriptor, operation, path: path)  // an app's launch: as it always did
                return
            }
            onChange(.waiting(LockHolder.of(lockFile: path)))
            _ = try attempt(descriptor, operation, path: path)
            onChange(.acquired)
            return
        }
        let holder = LockHolder.of(lockFile: path)
        // Only a wait is announced: with no patience, nothing waits.
        if limit > .zero { onChange?(.waiting(holder)) }
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: retrySeconds)
            if try attempt(descriptor, operation | LOCK_NB, path: path) {
                onChange?(.acquired)
                return
            }
        }
        throw FileLock.LockError(gaveUp: patience, holder: LockHolder.of(lockFile: path) ?? holder)
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
