import Foundation
@testable import MigrationExplorer

/// The readiness of a test's terminal: it asks `poll` every 2 ms whether input waits, until it
/// does (`true`) or the terminal is closed (`nil`).
///
/// ```swift
/// var readiness: any TerminalReadiness { PolledReadiness { [self] in closed ? nil : !keys.isEmpty } }
/// ```
struct PolledReadiness: TerminalReadiness {
    let poll: @Sendable () -> Bool?

    func wait() -> Bool {
        while let ready = poll() {
            if ready { return true }
            usleep(2_000)
        }
        return false
    }
}
