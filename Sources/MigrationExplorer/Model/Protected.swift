import Foundation

/// A value shared by closures that may run on other threads (the demo's bodies, a run's
/// observer), behind a lock.
final class Protected<Value>: @unchecked Sendable {
    // Safe: `stored` is only touched while `lock` is held.
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    /// Changes the value in one step; returns what `change` returns.
    @discardableResult
    func update<Result>(_ change: (inout Value) -> Result) -> Result { lock.withLock { change(&stored) } }
}
