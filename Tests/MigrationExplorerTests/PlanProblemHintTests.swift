import Foundation
import MigrationCore
import Testing
@testable import MigrationExplorer

/// A problem's hint adds to its message: it never says again what the message says.
@Suite("Plan problem hints")
struct PlanProblemHintTests {
    /// Every kind of problem: invalid, duplicate, declared after a higher one, a bad `since`,
    /// out of order, a downgrade and a mark read loosely.
    static func plan() throws -> MigrationPlan {
        var registry = MigrationRegistry(appName: "Notes")
        registry.releases = try ["0.5", "0.8", "0.9", "1.0"].map { try Version($0) }
        registry.migrate(toVersion: "0.5", title: "Five")
        registry.migrate(toVersion: "0.9", title: "Nine")
        registry.migrate(toVersion: "0.8", title: "Eight")
        registry.migrate(toVersion: "0.9", title: "Nine again")
        registry.migrate(toVersion: "1.0-beta", title: "Beta")
        registry.migrate(toVersion: "0.7", title: "Trim titles", since: "1.0")
        registry.migrate(toVersion: "0.6", title: "Late", since: "one")
        var state = registry.device(lastRan: try Version("0.9")).state
        state.lastAppVersion = "1.2b"
        return try MigrationPlan(registry: registry, state: state, target: try AppTarget(version: "1.0"))
    }

    @Test func noHintRepeatsAClauseOfItsMessage() throws {
        let problems = PlanProblem.all(in: try Self.plan())
        #expect(problems.count >= 5)
        #expect(problems.contains { $0.message.contains("out of order") })
        for problem in problems {
            let message = problem.message.lowercased()
            let clauses = problem.hint.lowercased().split(whereSeparator: { ",;.:".contains($0) })
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.count >= 15 }
            let repeated = clauses.filter { message.contains($0) }
            #expect(repeated.isEmpty, "\(problem.message) / Hint: \(problem.hint)")
        }
    }
}
