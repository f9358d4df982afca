import Foundation
import Testing
@testable import MigrationExplorer

/// A synchronous body that waits for asynchronous work (a manifest's command, driven on the
/// concurrency pool) hands that work its own priority: a run of high priority must not wait
/// for its command behind every task of default priority.
@Suite("Priority of the work a body waits for")
struct CommandPriorityTests {
    @Test func workABodyWaitsForRunsAtTheBodysPriority() async throws {
        let priority = try await Task(priority: .high) { try blocking { Task.currentPriority } }.value
        #expect(priority == .high)
    }
}
