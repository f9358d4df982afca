import Foundation
@testable import MigrationExplorer

/// The readiness of a test's terminal, woken by what the terminal does rather than by a clock:
/// ``wait()`` sleeps on the terminal's condition until `isReady` says input waits (`true`) or
/// the terminal is closed (`nil`). The terminal broadcasts the condition whenever it changes
/// what `isReady` reads (a key pressed, a screen drawn, closed). `isReady` runs with the
/// condition locked. With a `deadline`, a wait also wakes then, for a terminal whose script
/// gives up at that time.
///
/// ```swift
/// var readiness: any TerminalReadiness {
///     SignalledReadiness(condition: condition) { [self] in closed ? nil : !keys.isEmpty }
/// }
/// ```
struct SignalledReadiness: TerminalReadiness, @unchecked Sendable {
    // Safe: NSCondition is thread-safe; it is only used to wait and to guard `isReady`.
    let condition: NSCondition
    var deadline: Date?
    let isReady: @Sendable () -> Bool?

    init(condition: NSCondition, deadline: Date? = nil, isReady: @escaping @Sendable () -> Bool?) {
        (self.condition, self.deadline, self.isReady) = (condition, deadline, isReady)
    }

    func wait() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while let ready = isReady() {
            if ready { return true }
            if let deadline {
                if !condition.wait(until: deadline) { return isReady() ?? false }
            } else {
                condition.wait()
            }
        }
        return false
    }
}
