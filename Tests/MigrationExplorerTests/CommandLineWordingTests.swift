import Foundation
import MigrationCore
import Testing
@testable import MigrationExplorer

/// What a new user met on the command line: help that offers options a command refuses, Swift
/// type names in errors, a key removed without a word, two names for one domain, doubled
/// quotes, trailing spaces and a usage line for the wrong command.
@Suite("Command line wording")
struct CommandLineWordingTests {
    @Test("each command's help lists only the options it takes", arguments: [
        ("matrix", ["--from ", "--from-build", "--fail"]),
        ("export", ["--from ", "--from-build", "--fail", "--fresh-install", "--store", "--defaults-plist", "--sqlite", "--simulator", "--device", "--domain"]),
    ])
    func helpListsOnlyWhatTheCommandTakes(command: String, refused: [String]) async throws {
        let help = try await Executable.run([command, "--help"])
        #expect(help.status == 0)
        for option in refused { #expect(!help.stdout.contains(option), "\(command) --help offers \(option)") }
        #expect(help.stdout.contains("--manifest") && help.stdout.contains("--to-build"))
    }

    @Test func exportRefusesAStoreItWouldIgnore() async throws {
        let result = try await Executable.run(["export", "--sqlite", "app.sqlite"])
        #expect(result.status == 64, "\(result.stdout)")
    }

    @Test func anUnknownCommandIsAnsweredWithTheCommandsThereAre() async throws {
        let result = try await Executable.run(["bogus"])
        #expect(result.status == 64)
        #expect(!result.stderr.contains("tui <options>"), "\(result.stderr)")
        #expect(result.stderr.contains("\"bogus\" is not a command"), "\(result.stderr)")
        #expect(result.stderr.contains("plan, run, reset, set, matrix, whats-new, export"), "\(result.stderr)")
        let json = try await Executable.run(["bogus", "--json"])
        #expect(json.status == 64)
        // The word is what is wrong, not the default command's missing --json.
        let message = try (json.json()["error"] as? [String: Any])?["message"] as? String ?? ""
        #expect(message.contains("\"bogus\" is not a command"), "\(message)")
    }

    @Test func reportsHaveNoTrailingSpaces() async throws {
        for arguments in [["run", "--dry-run"], ["plan"], ["matrix"], ["run", "--fail", "0.9"]] {
            let result = try await Executable.run(arguments)
            let padded = result.stdout.split(separator: "\n").filter { $0.hasSuffix(" ") }
            #expect(padded.isEmpty, "\(arguments): \(padded)")
        }
    }

    @Test func aTitleWithQuotesIsNotQuotedInsideTheSameQuotes() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("m.json")
        try manifest.write(#"{ "appVersion": "1.0", "migrations": [ { "version": "0.9", "title": "Rename \"body\" to \"text\"", "run": "exit 3" } ] }"#)
        let result = try await Executable.run(["run", "--manifest", manifest.path, "--yes"])
        #expect(result.status == 1)
        #expect(!result.stdout.contains(#""Rename "body" to "text"""#) && !result.stderr.contains(#""Rename "body" to "text"""#), "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains(#"version 0.9 “Rename "body" to "text"” failed"#), "\(result.stderr)")
    }

    @Test func aCorruptHistoryIsDescribedWithoutSwiftTypeNames() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plist = folder.appendingPathComponent("prefs.plist")
        let record = Data(#"[{"date": "2026-01-01T00:00:00Z"}]"#.utf8)
        try PropertyListSerialization.data(fromPropertyList: ["MTMigration.lastMigrationVersion": "0.8", "MigrationExplorer.history": record],
                                           format: .xml, options: 0).write(to: plist)
        let result = try await Executable.run(["plan", "--defaults-plist", plist.path])
        #expect(result.status == 65)
        for name in ["DecodingError", "AnyCodingKey", "Optional(", "intValue", "Debug description"] {
            #expect(!result.stderr.contains(name), "\(result.stderr)")
        }
        #expect(result.stderr.contains("MigrationExplorer.history"), "\(result.stderr)")
    }

    @Test func aPlistsMTMigrationKeysHaveOneNameInEveryCommand() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plist = folder.appendingPathComponent("prefs.plist").path
        #expect(try await Executable.run(["set", "--defaults-plist", plist, "--version", "1.0"]).status == 0)
        let reset = try await Executable.run(["reset", "--defaults-plist", plist])
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(!reset.stdout.contains("\"default\""), "\(reset.stdout)")
        #expect(reset.stdout.contains("MTMigration's keys"), "\(reset.stdout)")
        let json = try await Executable.run(["reset", "--defaults-plist", plist, "--json"])
        #expect(try (json.json()["domains"] as? [[String: Any]])?.first?["name"] is NSNull, "\(json.stdout)")
    }

    @Test func setSaysWhichOlderKeysItRemovedAndWhy() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plist = folder.appendingPathComponent("prefs.plist")
        try PropertyListSerialization.data(fromPropertyList: ["MTMigration.lastMigrationVersion": "0.9", "Migration.lastVersion": "1.0", "Theme": "dark"],
                                           format: .xml, options: 0).write(to: plist)
        let result = try await Executable.run(["set", "--defaults-plist", plist.path, "--version", "0.8"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Removed Migration.lastVersion (1.0)"), "\(result.stdout)")
        let help = try await Executable.run(["set", "--help"])
        #expect(help.stdout.contains("older spellings"), "\(help.stdout)")
    }
}
