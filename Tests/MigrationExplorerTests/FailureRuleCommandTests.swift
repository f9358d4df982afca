import Foundation
import Testing

/// The failure rule as the command line shows it: a failed migration holds back the ones after
/// it on its track, the plan says so, and a run (which stops at its first failure) says what
/// it held back.
@Suite("Failure rule on the command line")
struct FailureRuleCommandTests {
    @Test func aRunThatFailsSaysWhatItHeldBackAndThePlanShowsIt() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("state.json").path
        let failing = try CommandLineTests().manifest(in: folder, failing: "0.10")
        let first = try await Executable.run(["run", "--manifest", failing.path, "--store", store], environment: ["LANG": "C.UTF-8"])
        #expect(first.status == 1)
        #expect(first.stdout.contains("Held back until version 0.10 \"Dates\" succeeds: version 1.0; they run after it next time"))
        #expect(first.stdout.contains("Not run, as a run stops at its first failure: build 118; they run next time"))
        let json = try await Executable.run(["run", "--manifest", failing.path, "--store", store, "--json"]).json()
        #expect((json["heldBack"] as? [[String: String]]) == [["version": "1.0"], ["build": "118"]])

        let plan = try await Executable.run(["plan", "--manifest", failing.path, "--store", store], environment: ["LANG": "C.UTF-8"])
        #expect(plan.stdout.contains("failed: runs on the next launch"))
        #expect(plan.stdout.contains("pending: held back until version 0.10 succeeds"))
        let planJSON = try await Executable.run(["plan", "--manifest", failing.path, "--store", store, "--json"]).json()
        let migrations = try #require(planJSON["migrations"] as? [[String: Any]])
        #expect(migrations.first { $0["version"] as? String == "1.0" }?["heldBackBy"] as? String == "0.10")
        #expect(migrations.first { $0["version"] as? String == "0.10" }?["heldBackBy"] == nil)
    }
}
