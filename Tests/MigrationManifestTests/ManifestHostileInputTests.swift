import Foundation
import MigrationCore
import MigrationManifest
import Testing

/// Text no store can keep, and values too long to quote whole: a NUL in any string is refused
/// at its field, and an error quotes a long value cut to a readable length.
@Suite("Manifest: hostile input")
struct ManifestHostileInputTests {
    @Test("a NUL in any string is refused at its field", arguments: [
        (#"{ "app": "No\u0000tes", "appVersion": "1.0", "migrations": [] }"#, "app"),
        (#"{ "appVersion": "1.0\u0000", "migrations": [] }"#, "appVersion"),
        (#"{ "appVersion": "1.0", "appBuild": "7\u0000", "migrations": [] }"#, "appBuild"),
        (#"{ "appVersion": "1.0", "releases": ["0.9\u0000"], "migrations": [] }"#, "releases[0]"),
        (#"{ "appVersion": "1.0", "migrations": [ { "version": "0.9", "title": "Add\u0000GUIDs" } ] }"#, "migrations[0].title"),
        (#"{ "appVersion": "1.0", "migrations": [ { "version": "0.9\u0000", "title": "t" } ] }"#, "migrations[0].version"),
        (#"{ "appVersion": "1.0", "migrations": [ { "build": "\u00007", "title": "t" } ] }"#, "migrations[0].build"),
        (#"{ "appVersion": "1.0", "migrations": [ { "version": "0.9", "title": "t", "notes": "a\u0000" } ] }"#, "migrations[0].notes"),
        (#"{ "appVersion": "1.0", "migrations": [ { "version": "0.9", "title": "t", "whatsNew": ["ok", "b\u0000"] } ] }"#, "migrations[0].whatsNew[1]"),
        (#"{ "appVersion": "1.0", "migrations": [ { "version": "0.7", "title": "t", "since": "1.0\u0000" } ] }"#, "migrations[0].since"),
        (#"{ "appVersion": "1.0", "migrations": [ { "version": "0.9", "title": "t", "sql": "SELECT 1\u0000" } ] }"#, "migrations[0].sql"),
        (#"{ "appVersion": "1.0", "migrations": [], "onUpdate": [ { "title": "\u0000" } ] }"#, "onUpdate[0].title"),
    ])
    func aNULInAnyStringIsRefused(json: String, field: String) {
        let found = manifestProblems(json)
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.hasPrefix("\(field): contains the control character U+0000 at character ") == true, "\(found)")
        #expect(found.allSatisfy { !$0.contains("\u{0}") }, "\(found)")
    }

    /// A message line stays readable: no quoted value longer than this many characters.
    static let readable = 300

    @Test func aMillionDigitVersionIsQuotedCut() {
        let digits = String(repeating: "9", count: 1_000_000)
        let found = manifestProblems(#"{ "appVersion": "1.0", "releases": ["\#(digits)"], "migrations": [ { "version": "\#(digits)", "title": "t" } ] }"#)
        #expect(found.count == 2, "\(found.map { $0.prefix(300) })")
        for problem in found {
            #expect(problem.count < Self.readable, "\(problem.prefix(300))")
            #expect(problem.contains("\"99999") && problem.contains("(1000000 characters)") && problem.contains("is not a version"), "\(problem.prefix(300))")
        }
    }

    @Test func aHugeUnknownKeyIsNamedCut() {
        let key = String(repeating: "k", count: 1_000_000)
        let found = manifestProblems(#"{ "appVersion": "1.0", "migrations": [ { "version": "1", "title": "t", "\#(key)": 1 } ] }"#)
        #expect(found.count == 1)
        #expect(found.first.map { $0.count < Self.readable && $0.hasPrefix("migrations[0].kkkk") && $0.contains("… (1000000 characters)") } == true,
                "\(found.map { $0.prefix(300) })")
    }

    @Test func aHugeBadValueIsQuotedCut() {
        let text = String(repeating: "x", count: 1_000_000)
        let found = manifestProblems(#"{ "appVersion": "1.0", "migrations": [ { "version": "1", "title": "t", "timeout": "\#(text)", "whatsNew": [1, "\#(text)"] } ] }"#)
        #expect(found.count == 2)
        for problem in found {
            #expect(problem.count < Self.readable && problem.contains("characters)"), "\(problem.prefix(300))")
        }
    }

    @Test func aHugeTitleIsCutWhereItNamesTheMigration() {
        let title = String(repeating: "T", count: 1_000_000)
        let found = manifestProblems(#"{ "appVersion": "1.0", "migrations": [ { "version": "1", "title": "\#(title)", "run": "" } ] }"#)
        #expect(found.count == 1)
        #expect(found.first.map { $0.count < Self.readable && $0.hasPrefix("migrations[0].run: is empty (version 1 \"TTT") } == true,
                "\(found.map { $0.prefix(300) })")
    }

    @Test func aShortValueIsQuotedWhole() {
        #expect(manifestProblems(#"{ "appVersion": "1.0-beta", "migrations": [] }"#)
            == [#"appVersion: "1.0-beta" is not a version: "-" is not allowed; use dot-separated numbers such as 1.2.3"#])
    }
}
