import Foundation
import MigrationTestSupport
import Testing

/// Limits the user sets (address space, open files) below what the explorer needs end it with
/// a message before anything runs: never a hang holding the store's lock, never a crash on a
/// signal.
@Suite("System limits")
struct SystemLimitTests {
    /// Runs the built binary under `ulimit` `limits`, in `folder`.
    func run(_ arguments: [String], limits: String, in folder: URL, within seconds: Double = 60) async throws -> Executable.Result? {
        try await Executable.run(["-c", "ulimit \(limits); exec \"$0\" \"$@\"", Executable.url.path] + arguments, in: folder,
                           endingWithin: seconds, binary: URL(fileURLWithPath: "/bin/sh"))
    }

    /// A manifest of three command steps, in `folder`.
    func threeSteps(in folder: URL) throws {
        try """
        { "app": "A", "appVersion": "1.0", "migrations": [
            { "version": "0.8", "title": "one", "run": "echo one" },
            { "version": "0.9", "title": "two", "run": "echo two" },
            { "version": "1.0", "title": "three", "run": "echo three" } ] }
        """.write(to: folder.appendingPathComponent("m.json"), atomically: true, encoding: .utf8)
    }

    @Test(arguments: ["170000", "250000", "500000"])
    func tooLittleAddressSpaceIsAMessageBeforeAnythingRunsNotAHang(_ kilobytes: String) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try threeSteps(in: folder)
        let result = try await #require(try run(["run", "--manifest", "m.json", "--store", "state.json"], limits: "-v \(kilobytes)", in: folder),
                                  "the run hung")
        #expect(result.status == 71, "\(result.stderr)")
        #expect(result.stderr.contains("MiB of address space (`ulimit -v`)"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("state.json").path), "something ran")
    }

    @Test func aRunWorksWithTheAddressSpaceItAsksFor() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try threeSteps(in: folder)
        let result = try await #require(try run(["run", "--manifest", "m.json", "--store", "state.json"], limits: "-v 2097152", in: folder),
                                  "the run hung")
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test(arguments: ["8", "16"])
    func tooFewOpenFilesIsAMessageNotASignal(_ limit: String) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await #require(try run(["plan"], limits: "-n \(limit)", in: folder))
        #expect(result.status == 71)
        #expect(result.stderr.contains("may open only \(limit) files"), "\(result.stderr)")
        #expect(result.stderr.contains("ulimit -n"))
    }

    @Test(arguments: ["-n 8", "-v 170000"])
    func withJSONALimitTooLowIsAJSONDocument(_ limits: String) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await #require(try run(["plan", "--json"], limits: limits, in: folder))
        #expect(result.status == 71)
        let error = try #require(try result.json()["error"] as? [String: Any], "\(result.stdout)")
        #expect(error["kind"] as? String == "system-limit")
        #expect((error["message"] as? String)?.contains("ulimit") == true)
    }

    @Test func aRunWorksAtTheLeastNumberOfOpenFilesItAsksFor() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
        { "app": "A", "appVersion": "1.0", "migrations": [ { "version": "1.0", "title": "one", "run": "echo one" } ] }
        """.write(to: folder.appendingPathComponent("m.json"), atomically: true, encoding: .utf8)
        let result = try await #require(try run(["run", "--manifest", "m.json", "--store", "state.json"], limits: "-n 32", in: folder))
        #expect(result.status == 0, "\(result.stderr)")
    }
}
