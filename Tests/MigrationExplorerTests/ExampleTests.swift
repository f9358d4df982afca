import Foundation
import MigrationTestSupport
import Testing

/// The README's walk through `Examples/notes`, pasted line by line, on a copy of the files git
/// tracks in the example (never the store, data or markers a user's own runs left there).
@Suite("Examples", .onThreadOfItsOwn)
struct ExampleTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `sh` block under "An example to copy" in the README.
    static func readmeCommands() throws -> [String] {
        let readme = try repository.appendingPathComponent("README.md").read()
        let section = try #require(readme.components(separatedBy: "### An example to copy").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```sh\n").dropFirst().first?.components(separatedBy: "```").first)
        return block.split(separator: "\n").map(String.init)
    }

    @Test func everyREADMECommandOnTheNotesExampleWorksAsDocumented() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try copyTrackedFiles(of: "Examples/notes", in: Self.repository, to: folder.appendingPathComponent("Examples/notes"))
        let lines = try Self.readmeCommands()
        #expect(lines.count >= 8)
        for line in lines {
            let parts = line.components(separatedBy: "  # ")
            let command = parts[0].trimmingCharacters(in: .whitespaces)
            let comment = parts.dropFirst().joined()
            let prefix = "swift run migration-explorer "
            guard command.hasPrefix(prefix) else {
                let shell = SpawnedProcess()
                shell.executableURL = URL(fileURLWithPath: "/bin/sh")
                shell.arguments = ["-c", command]
                shell.currentDirectoryURL = folder
                try shell.run()
                shell.waitUntilExit()
                #expect(shell.terminationStatus == 0, "\(line)")
                continue
            }
            let arguments = command.dropFirst(prefix.count).split(separator: " ").map(String.init)
            let expected: Int32 = if let range = comment.range(of: #"exit \d+"#, options: .regularExpression) {
                Int32(comment[range].dropFirst(5))!
            } else if arguments.first?.hasPrefix("--") == true {
                2 // the terminal UI, without a terminal here
            } else {
                0
            }
            let result = try await Executable.run(arguments, in: folder)
            #expect(result.status == expected, "\(line)\n\(result.stdout)\n\(result.stderr)")
        }
        let data = folder.appendingPathComponent("Examples/notes/data")
        #expect(try data.appendingPathComponent("notes.tsv").read().hasPrefix("note-1\tGroceries\t2026-11-21\thome,errands\n"))
        #expect(try data.appendingPathComponent("index.txt").read().contains("travel"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("Examples/notes/data-sandbox/notes.tsv").path))
    }

    /// The first `swift` block of the embedding article.
    @Test func theEmbeddingArticlesExampleIsTheOneThatIsBuilt() throws {
        let article = try Self.repository.appendingPathComponent("Sources/MigrationExplorer/MigrationExplorer.docc/EmbeddingTheExplorer.md").read()
        let section = try #require(article.components(separatedBy: "# Embedding: your app's own explorer").dropFirst().first)
        let block = try #require(section.components(separatedBy: "```swift\n").dropFirst().first?.components(separatedBy: "```").first)
        let source = try Self.repository.appendingPathComponent("Sources/embedded-example/main.swift").read()
        #expect(source.split(separator: "\n", maxSplits: 1).last.map(String.init) == block)
    }

    @Test func aSandboxRunFromAReleaseRewritesTheNotesOfADeviceAtThatRelease() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let example = folder.appendingPathComponent("notes")
        try copyTrackedFiles(of: "Examples/notes", in: Self.repository, to: example)
        let manifest = example.appendingPathComponent("manifest.json").path
        let result = try await Executable.run(["run", "--manifest", manifest, "--from", "0.10", "--yes", "--json"])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        let ran = try #require(try result.json()["ran"] as? [[String: Any]])
        try #require(ran.map { ($0["version"] ?? $0["build"]) as? String } == ["1.0", "118"], "\(ran)")
        #expect(ran[0]["output"] as? String == "tags of the first note: home,errands")
        // A 0.10 device's notes (ids, ISO dates), their tags now split by 1.0.
        #expect(try example.appendingPathComponent("data-sandbox/notes.tsv").read() == """
            note-1\tGroceries\t2026-11-21\thome,errands
            note-2\tTrip plan\t2026-12-03\ttravel
            note-3\tIdeas\t2026-10-15\twork,ideas,later

            """)
        #expect(try example.appendingPathComponent("data/notes.tsv").read() == example.appendingPathComponent("seed/notes.tsv").read(),
                "the real notes stay as they are")
    }

    @Test func aMigrationGivenNotesOfAnotherShapeFailsSayingWhichLine() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let example = folder.appendingPathComponent("notes")
        try copyTrackedFiles(of: "Examples/notes", in: Self.repository, to: example)
        try FileManager.default.createDirectory(at: example.appendingPathComponent("data"), withIntermediateDirectories: true)
        let notes = example.appendingPathComponent("data/notes.tsv")
        try notes.write("Groceries\t21/11/2026\thome errands\nTrip plan, no date\n")
        let manifest = example.appendingPathComponent("manifest.json").path
        let store = example.appendingPathComponent("state.json").path
        let result = try await Executable.run(["run", "--manifest", manifest, "--store", store, "--json"])
        #expect(result.status == 1)
        let ran = try #require(try result.json()["ran"] as? [[String: Any]])
        try #require(ran.map { $0["result"] as? String } == ["failed"], "\(ran)")
        #expect((ran[0]["output"] as? String)?.contains("notes.tsv: line 2 is not one of the 0.8 notes (title, date, tags)") == true, "\(ran[0])")
        #expect(try notes.read() == "Groceries\t21/11/2026\thome errands\nTrip plan, no date\n", "nothing is rewritten")
    }

    @Test func theFailingAndSlowMigrationsDoWhatTheySay() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let example = folder.appendingPathComponent("notes")
        try copyTrackedFiles(of: "Examples/notes", in: Self.repository, to: example)
        try example.appendingPathComponent("fail-split-tags").write("")
        let manifest = example.appendingPathComponent("manifest.json").path
        let store = example.appendingPathComponent("state.json").path
        let failed = try await Executable.run(["run", "--manifest", manifest, "--store", store, "--json"])
        #expect(failed.status == 1)
        let ran = try #require(try failed.json()["ran"] as? [[String: Any]])
        try #require(ran.map { $0["result"] as? String } == ["succeeded", "succeeded", "failed"])
        #expect((ran[2]["output"] as? String)?.contains("failing on purpose") == true)
        try FileManager.default.removeItem(at: example.appendingPathComponent("fail-split-tags"))
        let resumed = try await Executable.run(["run", "--manifest", manifest, "--store", store], environment: ["LANG": "C.UTF-8"])
        #expect(resumed.status == 0)
        #expect(resumed.stdout.contains("build 118 │ indexing: 20%\nbuild 118 │ indexing: 40%"))
    }
}
