import Foundation

/// A value behind a lock, for short critical sections that never call out.
final class Locked<Value>: @unchecked Sendable {
    // Safe: `value` is only touched inside `lock`, and `body` must not re-enter.
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<T, E: Error>(_ body: (inout Value) throws(E) -> T) throws(E) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
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
