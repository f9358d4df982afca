import Foundation
import MigrationTestSupport
import Testing

/// Limits the system sets (address space, open files) end a run or the explorer with a
/// message: never a hang holding the store's lock, never a crash on a signal.
@Suite("System limits")
struct SystemLimitTests {
    /// Runs the built binary under `ulimit` `limits`, in `folder`.
    func run(_ arguments: [String], limits: String, in folder: URL, within seconds: Double = 60) throws -> Executable.Result? {
        try Executable.run(["-c", "ulimit \(limits); exec \"$0\" \"$@\"", Executable.url.path] + arguments, in: folder,
                           endingWithin: seconds, binary: URL(fileURLWithPath: "/bin/sh"))
    }

    @Test func aThreadThatCannotStartEndsTheStepAndTheRunInsteadOfHanging() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
        { "app": "A", "appVersion": "1.0", "migrations": [
            { "version": "0.8", "title": "one", "run": "echo one" },
            { "version": "0.9", "title": "two", "run": "echo two" },
            { "version": "1.0", "title": "three", "run": "echo three" } ] }
        """.write(to: folder.appendingPathComponent("m.json"), atomically: true, encoding: .utf8)
        // Little address space: a thread's stack soon cannot be had.
        let result = try #require(try run(["run", "--manifest", "m.json", "--store", "state.json", "--json"], limits: "-v 250000", in: folder),
                                  "the run hung")
        // A step that could not start its command fails it (1); a thread the run itself needed,
        // before any step, is the system's refusal (71). Either way it says so.
        if result.status != 0 {
            #expect(result.status == 1 || result.status == 71, "\(result.stderr)")
            #expect(result.stderr.contains("could not start a thread"), "\(result.stderr)")
        }
        // Whatever ran is recorded, and nothing holds the store: a run now finishes the rest.
        let after = try Executable.run(["run", "--manifest", "m.json", "--store", "state.json", "--no-wait"], in: folder)
        #expect(after.status == 0, "\(after.stderr)")
    }

    @Test(arguments: ["8", "16"])
    func tooFewOpenFilesIsAMessageNotASignal(_ limit: String) throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try #require(try run(["plan"], limits: "-n \(limit)", in: folder))
        #expect(result.status == 71)
        #expect(result.stderr.contains("may open only \(limit) files"), "\(result.stderr)")
        #expect(result.stderr.contains("ulimit -n"))
    }

    @Test func aRunWorksAtTheLeastNumberOfOpenFilesItAsksFor() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try """
        { "app": "A", "appVersion": "1.0", "migrations": [ { "version": "1.0", "title": "one", "run": "echo one" } ] }
        """.write(to: folder.appendingPathComponent("m.json"), atomically: true, encoding: .utf8)
        let result = try #require(try run(["run", "--manifest", "m.json", "--store", "state.json"], limits: "-n 32", in: folder))
        #expect(result.status == 0, "\(result.stderr)")
    }
}
