import Foundation
import Testing
@testable import MigrationExplorer

/// Every outcome's exit status, and with `--json` one JSON document on stdout, errors included.
@Suite("Exit statuses and JSON errors")
struct ExitStatusTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let arguments: [String]
        let status: Int32
        let kind: String
        /// Files the case needs, by name, in a fresh folder; "DIR" makes a folder.
        var files: [String: String] = [:]
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let cases: [Case] = [
        Case(arguments: ["plan", "--from", "v2", "--to", "1..2"], status: 65, kind: "version"),
        Case(arguments: ["plan", "--manifest", "missing.json"], status: 65, kind: "manifest"),
        Case(arguments: ["run", "--store", "folder"], status: 65, kind: "store", files: ["folder": "DIR"]),
        Case(arguments: ["plan", "--store", "nowhere/state.json"], status: 65, kind: "store"),
        Case(arguments: ["reset", "--store", "nowhere/state.json"], status: 65, kind: "store"),
        Case(arguments: ["reset", "--store", "state.json"], status: 65, kind: "store", files: ["state.json": "{ broken"]),
        Case(arguments: ["run", "--store", "state.json"], status: 65, kind: "store", files: ["state.json": "{ broken"]),
        Case(arguments: ["plan", "--nope"], status: 64, kind: "usage"),
        Case(arguments: ["plan", "--store", "s.json", "--defaults-plist", "p.plist"], status: 64, kind: "usage"),
        Case(arguments: ["run", "--defaults-plist", "p.plist", "--simulator", "com.example.notes"], status: 64, kind: "usage"),
        Case(arguments: ["plan", "--device", "booted"], status: 64, kind: "usage"),
        Case(arguments: ["set", "--simulator", "../etc", "--version", "0.8"], status: 64, kind: "usage"),
        Case(arguments: ["set", "--version", "0.8"], status: 64, kind: "usage"),
        Case(arguments: ["set", "--defaults-plist", "p.plist"], status: 64, kind: "usage"),
        Case(arguments: ["plan", "--domain", ""], status: 64, kind: "usage"),
        // A domain without a store would name records nothing reads, silently.
        Case(arguments: ["plan", "--domain", "x"], status: 64, kind: "usage"),
        Case(arguments: ["set", "--defaults-plist", "p.plist", "--version", "1.0", "--version", "2.0"], status: 64, kind: "usage"),
        Case(arguments: ["matrix", "--from", "0.8"], status: 64, kind: "usage"),
        Case(arguments: ["set", "--defaults-plist", "p.plist", "--version", "0.8-beta"], status: 65, kind: "version"),
        Case(arguments: ["set", "--defaults-plist", "p.plist", "--version", "0.8"], status: 65, kind: "store", files: ["p.plist": "garbage"]),
        Case(arguments: ["plan", "--defaults-plist", "p.plist"], status: 65, kind: "store", files: ["p.plist": "<plist><array/></plist>"]),
        Case(arguments: ["set", "--store", "s.json", "--version", "0.8"], status: 65, kind: "store", files: ["s.json": "{ broken"]),
        Case(arguments: ["reset", "--defaults-plist", "p.plist"], status: 65, kind: "store", files: ["p.plist": "garbage"]),
        Case(arguments: ["run", "--defaults-plist", "p.plist"], status: 65, kind: "store", files: ["p.plist": "garbage"]),
        Case(arguments: ["set", "--defaults-plist", "", "--version", "0.8"], status: 64, kind: "usage"),
        Case(arguments: ["reset", "--store", "", "--domain", "x"], status: 64, kind: "usage"),
        Case(arguments: ["set", "--defaults-plist", "p.plist", "--domain", "", "--version", "0.8"], status: 64, kind: "usage"),
        Case(arguments: ["export", "--store", "s.json"], status: 64, kind: "usage"),
        Case(arguments: ["export", "--from", "0.8"], status: 64, kind: "usage"),
        Case(arguments: ["export", "--fail", "0.9"], status: 64, kind: "usage"),
        Case(arguments: ["matrix", "--from-build", "90"], status: 64, kind: "usage"),
        Case(arguments: ["reset", "--defaults-plist", "p.plist", "--domain", ""], status: 64, kind: "usage"),
        Case(arguments: ["run", "--defaults-plist", "folder"], status: 65, kind: "store", files: ["folder": "DIR"]),
        Case(arguments: ["run", "--timeout", "0"], status: 64, kind: "usage"),
        Case(arguments: ["run", "--fail", "0.10"], status: 1, kind: "migration-failed"),
        // A version no demo migration has would make nothing fail, silently.
        Case(arguments: ["run", "--fail", "9.9"], status: 64, kind: "usage"),
        Case(arguments: ["plan", "--fail", "9.9"], status: 64, kind: "usage"),
    ]

    @Test("exit status, stderr and one JSON document", arguments: cases)
    func outcome(_ testCase: Case) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, content) in testCase.files {
            let url = folder.appendingPathComponent(name)
            if content == "DIR" { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) } else { try url.write(content) }
        }
        let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let text = try await Executable.run(testCase.arguments, in: folder)
        #expect(text.status == testCase.status)
        #expect(!text.stderr.isEmpty)
        let json = try await Executable.run(testCase.arguments + ["--json"], in: folder)
        #expect(json.status == testCase.status)
        let error = try #require(try json.json()["error"] as? [String: Any], "\(json.stdout)")
        #expect(error["kind"] as? String == testCase.kind)
        #expect((error["message"] as? String).map { !$0.isEmpty } == true)
        #expect(error.keys.contains("path"))
        // A failure leaves nothing behind, not even a lock file.
        let after = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(after.sorted() == before, "a file was left behind")
    }

    @Test func everyBadVersionIsReportedAtOnce() async throws {
        let result = try await Executable.run(["plan", "--from", "v2", "--to", "1..2", "--json"])
        let message = try #require((try result.json()["error"] as? [String: Any])?["message"] as? String)
        #expect(message.contains("--from: \"v2\""))
        #expect(message.contains("--to: \"1..2\""))
    }

    @Test("a bad manifest, store and version are reported together", arguments: [
        (["plan", "--manifest", "nope.json", "--store", "bad.json", "--from", "1.x"], ["nope.json", "bad.json", "--from: \"1.x\""]),
        (["plan", "--manifest", "nope.json", "--store", "bad.json"], ["nope.json", "bad.json"]),
        (["run", "--manifest", "bad-manifest.json", "--from", "v2"], ["bad-manifest.json", "--from: \"v2\""]),
        (["plan", "--store", "folder", "--to", "x"], ["folder: is a directory", "--to: \"x\""]),
    ])
    func everyUnusableInputIsReportedAtOnce(arguments: [String], mentions: [String]) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try folder.appendingPathComponent("bad.json").write("{ broken")
        try folder.appendingPathComponent("bad-manifest.json").write(#"{ "appVersion": "1.0" }"#)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("folder"), withIntermediateDirectories: true)
        let result = try await Executable.run(arguments + ["--json"], in: folder)
        #expect(result.status == 65)
        let message = try #require((try result.json()["error"] as? [String: Any])?["message"] as? String)
        for mention in mentions {
            #expect(message.contains(mention), "\(message)")
            #expect(result.stderr.contains(mention))
        }
        #expect(try Data(contentsOf: folder.appendingPathComponent("bad.json")) == Data("{ broken".utf8))
    }

    @Test func aStoreThatIsAFolderIsNamedAndNothingIsLeftBeside() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("records")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        let result = try await Executable.run(["plan", "--store", store.path, "--json"])
        #expect(result.stderr.contains("\(store.path): is a directory"))
        #expect((try result.json()["error"] as? [String: Any])?["path"] as? String == store.path)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["records"])
    }

    @Test func aFailedRunSaysWhyOnStderrAndCarriesTheErrorBesideTheUsualFields() async throws {
        let result = try await Executable.run(["run", "--fail", "0.10", "--json"])
        #expect(result.stderr.contains("version 0.10"))
        #expect(result.stderr.contains("the demo was started with --fail 0.10"))
        let json = try result.json()
        #expect((json["ran"] as? [Any])?.isEmpty == false)
        #expect(json["state"] is [String: Any])
        #expect((json["error"] as? [String: Any])?["kind"] as? String == "migration-failed")
        let success = try await Executable.run(["run", "--json"]).json()
        #expect(success["error"] is NSNull)
    }

    @Test func problemsNameTheirMigrationByTrack() async throws {
        let json = try await Executable.run(["plan", "--json"]).json()
        let problem = try #require((json["problems"] as? [[String: Any]])?.first)
        #expect(problem["migration"] as? [String: String] == ["version": "0.7"])
    }

    @Test func aBaselinedRunSaysBaselined() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("state.json").path
        let json = try await Executable.run(["run", "--store", store, "--fresh-install", "baseline", "--json"]).json()
        let results = (json["ran"] as? [[String: Any]])?.compactMap { $0["result"] as? String }
        #expect(results?.isEmpty == false)
        #expect(results?.allSatisfy { $0 == "baselined" } == true)
    }

    /// A row of the command-line article's exit-status table: the status as written
    /// (`64`, `128 + signal`) and the `error.kind`s it lists.
    struct DocumentedStatus {
        let status: String
        let kinds: [String]
    }

    /// The table under "Exit status and errors" in the command-line article.
    static func documentedStatuses() throws -> [DocumentedStatus] {
        let article = try ExampleTests.repository
            .appendingPathComponent("Sources/MigrationExplorer/MigrationExplorer.docc/TheCommandLine.md").read()
        let section = try #require(article.components(separatedBy: "### Exit status and errors").dropFirst().first)
        let rows = section.components(separatedBy: "\n").drop { !$0.hasPrefix("| status |") }.dropFirst(2).prefix { $0.hasPrefix("|") }
        return rows.map { row in
            let cells = row.replacingOccurrences(of: "\\|", with: "¦").split(separator: "|", omittingEmptySubsequences: false)
                .map { $0.trimmingCharacters(in: .whitespaces) }
            // "(`error` is `null`)", "(no document: …)": no kind at all.
            let kindCell = cells[cells.count - 2]
            let kinds = kindCell.hasPrefix("(") ? [] : kindCell.matches(of: /`([a-z-]+)`/).map { String($0.output.1) }
            return DocumentedStatus(status: cells[1], kinds: kinds)
        }
    }

    static let signalRow = "\(ExitStatus.signalBase) + signal"

    @Test func theCommandLineArticlesTableHasEveryStatusAndNoOther() throws {
        let documented = try Self.documentedStatuses()
        let numbers = Set(ExitStatus.allCases.map { String($0.rawValue) } + [Self.signalRow])
        #expect(Set(documented.map(\.status)) == numbers)
    }

    /// Every `error.kind` is listed beside the status it exits with, and beside no other (a
    /// server that cannot be reached is a `store` error; a signal's run is `cancelled`).
    @Test func theCommandLineArticlesTableListsEachKindBesideItsStatus() throws {
        let documented = try Self.documentedStatuses()
        for kind in CommandFailure.Kind.allCases {
            #expect(documented.contains { $0.status == String(kind.status.rawValue) && $0.kinds.contains(kind.rawValue) },
                    "\(kind.rawValue) is not listed beside \(kind.status.rawValue)")
        }
        let exceptions = [String(ExitStatus.serverUnavailable.rawValue): CommandFailure.Kind.store, Self.signalRow: .cancelled]
        for row in documented {
            for listed in row.kinds {
                let kind = try #require(CommandFailure.Kind(rawValue: listed), "\(listed) is not an error kind")
                #expect(String(kind.status.rawValue) == row.status || exceptions[row.status] == kind,
                        "\(listed) is listed beside \(row.status), but exits with \(kind.status.rawValue)")
            }
        }
    }

    @Test func theHelpTextGivesEveryStatusAndItsMeaning() async throws {
        let help = try await Executable.run(["--help"])
        #expect(help.status == 0)
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for status in ExitStatus.allCases {
            #expect(words.contains("\(status.rawValue) \(status.meaning)"), "--help lacks \(status.rawValue) \(status.meaning)")
        }
        #expect(words.contains("\(ExitStatus.signalBase) + the signal when \(ExitStatus.signalMeaning)"))
    }
}
