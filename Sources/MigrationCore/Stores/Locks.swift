import Foundation

/// A value behind a lock, for short critical sections that never call out.
final class Locked<Value>: @unchecked Sendable {
    // Safe: `value` is only touched inside `lock`, and `body` must not re-enter. A pointer
    // rather than a stored `var`, which the lock already excludes: no runtime exclusivity
    // check on every call of a launch-time path.
    private let lock = NSLock()
    private let value: UnsafeMutablePointer<Value>

    init(_ value: Value) {
        self.value = .allocate(capacity: 1)
        self.value.initialize(to: value)
    }

    deinit {
        value.deinitialize(count: 1)
        value.deallocate()
    }

    func withLock<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value.pointee)
    }
}

/// A lock one thread may take again while holding it, so that a migration body can call back
/// into the migrator or store that is running it.
final class RecursiveLock: Sendable {
    private let lock = NSRecursiveLock()

    func withLock<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
