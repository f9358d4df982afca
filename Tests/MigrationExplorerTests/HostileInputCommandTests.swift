import Foundation
import Testing

/// What the command line does with input no store can keep and values too long to quote.
@Suite("Command line: hostile input")
struct HostileInputCommandTests {
    @Test(arguments: [["plan"], ["export"], ["matrix", "--json"]])
    func aNULInATitleIsAManifestErrorThatExits65(command: [String]) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("m.json")
        try manifest.write(#"{ "appVersion": "1.0", "migrations": [ { "version": "0.9", "title": "Add\u0000GUIDs" } ] }"#)
        let result = try await Executable.run(command + ["--manifest", manifest.path])
        #expect(result.status == 65, "\(result.stdout)\(result.stderr)")
        #expect((result.stderr + result.stdout).contains("migrations[0].title: contains the control character U+0000 at character 3"), "\(result.stderr)")
    }

    @Test func aVersionOfAHundredThousandDigitsIsQuotedCut() async throws {
        let digits = String(repeating: "9", count: 100_000)
        // Within a deadline: a message too long for the pipe would block the explorer for good.
        let result = try #require(try await Executable.run(["plan", "--from", digits, "--to", "1.0.\(digits)"], endingWithin: 30))
        #expect(result.status == 65)
        let lines = result.stderr.split(separator: "\n")
        #expect(!lines.isEmpty && lines.allSatisfy { $0.count < 400 }, "\(result.stderr.prefix(600))")
        #expect(result.stderr.contains("--from: \"99999") && result.stderr.contains("…\" (100000 characters)"), "\(result.stderr.prefix(600))")
        #expect(result.stderr.contains("--to: \"1.0.99999") && result.stderr.contains("…\" (100004 characters)"), "\(result.stderr.prefix(600))")
    }
}
