import Foundation

/// A value shared by the demo's closures, behind a lock.
final class Protected<Value>: @unchecked Sendable {
    // Safe: `stored` is only touched while `lock` is held.
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    /// Changes the value in one step.
    func update(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
}
