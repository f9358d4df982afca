import Foundation
import MigrationCore
import MigrationManifest
import Testing

@Suite("Manifest")
struct ManifestTests {
    @Test func aByteOrderMarkBeforeTheJSONIsIgnored() {
        // As an editor on Windows may save it (RFC 8259 lets a parser ignore it).
        #expect(manifestProblems("\u{FEFF}" + #"{ "appVersion": "1.0", "migrations": [ { "version": "1", "title": "t" } ] }"#) == [])
        #expect(manifestProblems("\u{FEFF}" + #"{ "appVersion": "1.0", "migrations": [ 3 ] }"#).first?.hasPrefix("migrations[0]: must be a JSON object") == true)
    }

    @Test func aGoodManifestBecomesARegistry() throws {
        let app = try Manifest.parse(Data("""
        { "app": "Notes", "appVersion": "1.0", "appBuild": "120",
          "migrations": [ { "version": "0.9", "title": "GUIDs", "notes": "n", "whatsNew": ["a", "b"] },
                          { "build": "118", "title": "Index" } ],
          "onUpdate": [ { "title": "Stats" } ], "onBuildUpdate": [ { "title": "Caches" } ] }
        """.utf8), path: "m.json", folder: URL(fileURLWithPath: "/tmp"))
        #expect(app.registry.appName == "Notes")
        #expect(app.appVersion == "1.0" && app.appBuild == "120")
        try #require(app.registry.migrations.map(\.label) == ["version 0.9 \"GUIDs\"", "build 118 \"Index\""])
        #expect(app.registry.migrations[0].whatsNew == ["a", "b"])
        #expect(app.registry.hooks.map(\.kind) == ["onUpdate", "onBuildUpdate"])
    }

    @Test("each bad input is reported with its field path", arguments: [
        ("not json", "file: is not valid JSON"),
        ("[]", "manifest: must be a JSON object, not []"),
        (#"{ "migrations": [] }"#, "appVersion: is missing"),
        (#"{ "appVersion": "1.0" }"#, "migrations: is missing"),
        (#"{ "appVersion": "1.0", "migrations": {} }"#, "migrations: must be a list"),
        (#"{ "appVersion": "x", "migrations": [] }"#, #"appVersion: "x" is not a version"#),
        (#"{ "appVersion": "1.0", "appBuild": 12, "migrations": [] }"#, "appBuild: must be a string such as \"1.0\", not 12"),
        (#"{ "appVersion": "1.0", "migrations": [ 3 ] }"#, "migrations[0]: must be a JSON object, not 3"),
        (#"{ "appVersion": "1.0", "migrations": [ { "version": "1", "title": "  " } ] }"#, "migrations[0].title: is empty"),
        (#"{ "appVersion": "1.0", "migrations": [ { "version": "", "title": "t" } ] }"#, #"migrations[0].version: "" is not a version: it is empty"#),
        (#"{ "appVersion": "1.0", "migrations": [ { "build": "7", "title": "a" }, { "build": "7.0", "title": "b" } ] }"#, #"migrations[1].build: "7.0" duplicates migrations[0].build"#),
        (#"{ "appVersion": "1.0", "migrations": [ { "version": "1", "title": "t", "whatsNew": [1] } ] }"#, "migrations[0].whatsNew: must be a list of strings"),
        (#"{ "appVersion": "1.0", "migrations": [ { "version": "1", "title": "t", "run": false } ] }"#, "migrations[0].run: must be a string, not false"),
        (#"{ "appVersion": "1.0", "migrations": [], "onBuildUpdate": [ { "title": "t", "when": "now" } ] }"#, "onBuildUpdate[0].when: is not a known field"),
        (#"{ "appVersion": "1.0", "migrations": [ { "version": "1", "title": "t", "timeout": 0 } ] }"#, "migrations[0].timeout: must be a positive number of seconds up to a year (31536000), not 0"),
        (#"{ "appVersion": "1.0", "migrations": [ { "version": "1", "title": "t", "timeout": "30" } ] }"#, #"migrations[0].timeout: must be a positive number of seconds up to a year (31536000), not "30""#),
        (#"{ "appVersion": "1.0", "migrations": [], "onUpdate": [ { "title": "t", "timeout": -1 } ] }"#, "onUpdate[0].timeout: must be a positive number of seconds"),
        (#"{ "appVersion": "1.0", "migrations": [ { "version": "1", "title": "t", "timeout": 1e19 } ] }"#, "migrations[0].timeout: must be a positive number of seconds up to a year (31536000), not 1e19"),
        (#"{ "appVersion": "1.0", "migrations": [ { "version": "1", "title": "t", "run": "echo\u0000" } ] }"#, "migrations[0].run: contains the control character U+0000 at character 4"),
        (#"{ "appVersion": "1.0", "migrations": [], "onUpdate": [ { "title": "t", "run": "echo \r" } ] }"#, "onUpdate[0].run: contains the control character U+000D"),
        (#"{ "appVersion": "1.0", "migrations": [ { "version": "1", "title": "t", "sql": " \n" } ] }"#, #"migrations[0].sql: is empty (version 1 "t"); give one or more SQL statements"#),
        (#"{ "appVersion": "1.0", "migrations": [ { "version": "1", "title": "t", "sql": " ; ;" } ] }"#, #"migrations[0].sql: holds no statement (version 1 "t")"#),
        (#"{ "appVersion": "1.0", "migrations": [ { "version": "1", "title": "t", "sql": "-- nothing yet\n/* later */ ;" } ] }"#, #"migrations[0].sql: holds no statement (version 1 "t")"#),
        (#"{ "appVersion": "1.0", "migrations": [], "onUpdate": [ { "title": "t", "sql": "SELECT 1" } ] }"#, "onUpdate[0].sql: is not a known field"),
        (#"{ "appVersion": "1.0", "migrations": [ { "version": "1", "title": "t", }, ] }"#, #"file: is not strict JSON at line 1, column 72: a trailing comma before "}" in "migrations""#),
        (#"{ "appVersion": "1.0", "appVersion": "2.0", "migrations": [] }"#, #"file: is not strict JSON at line 1, column 24: the key "appVersion" appears twice"#),
    ])
    func badInput(json: String, expected: String) {
        let found = manifestProblems(json)
        #expect(found.contains { $0.hasPrefix(expected) }, "\(found)")
    }

    @Test("an empty or blank run is a problem naming the migration or hook and the field", arguments: [
        (#"{ "appVersion": "1.0", "migrations": [ { "version": "1.1", "title": "Pin notes", "run": "" } ] }"#,
         #"migrations[0].run: is empty (version 1.1 "Pin notes"); give a shell command, or leave "run" out"#),
        (#"{ "appVersion": "1.0", "migrations": [ { "build": "7", "title": "b", "run": "  \n\t " } ] }"#, #"migrations[0].run: is empty (build 7 "b")"#),
        (#"{ "appVersion": "1.0", "migrations": [], "onBuildUpdate": [ { "title": "Caches", "run": " " } ] }"#, #"onBuildUpdate[0].run: is empty (hook "Caches")"#),
    ])
    func anEmptyOrBlankRunIsAManifestError(json: String, expected: String) {
        let found = manifestProblems(json)
        #expect(found.count == 1 && found[0].hasPrefix(expected), "\(found)")
    }

    @Test func sqlAsAListOfStatementsIsRefusedSayingItMustBeOneString() {
        let found = manifestProblems(#"{ "appVersion": "1.0", "migrations": [ { "version": "1.1", "title": "Pin", "sql": ["SELECT 1", "SELECT 2"] } ] }"#)
        #expect(found == [#"migrations[0].sql: must be one string holding the statements, separated by ";" (version 1.1 "Pin"), not a list: ["SELECT 1","SELECT 2"]"#])
    }

    @Test(arguments: ["-- the tags table\nCREATE TABLE tag (name TEXT)", "/* ; */ INSERT INTO t VALUES ('--')", "SELECT 1;"])
    func sqlWithAStatementAmongCommentsIsValid(sql: String) throws {
        let json = try String(data: JSONSerialization.data(withJSONObject: ["appVersion": "1.0", "migrations": [["version": "1", "title": "t", "sql": sql]]]), encoding: .utf8)!
        #expect(manifestProblems(json).isEmpty)
    }

    @Test func aMigrationWithNoCommandStaysValid() {
        #expect(manifestProblems(#"{ "appVersion": "1.0", "migrations": [ { "version": "1", "title": "t" } ], "onUpdate": [ { "title": "h" } ] }"#).isEmpty)
    }

    @Test func tabsNewlinesAndTimeoutsAreFine() throws {
        let app = try Manifest.parse(Data(#"{ "appVersion": "1.0", "migrations": [ { "version": "1", "title": "t", "run": "echo a\n\techo b", "timeout": 2.5 } ] }"#.utf8),
                                     path: "m.json", folder: URL(fileURLWithPath: "/tmp"))
        #expect(app.runsCommands)
    }

    @Test func aManifestWithoutCommandsRunsNone() throws {
        let app = try Manifest.parse(Data(#"{ "appVersion": "1.0", "migrations": [ { "version": "1", "title": "t" } ] }"#.utf8),
                                     path: "m.json", folder: URL(fileURLWithPath: "/tmp"))
        #expect(!app.runsCommands)
    }

    @Test func migrationsWithSQLAreNamedForTheStoreCheck() throws {
        let app = try Manifest.parse(Data(#"""
        { "appVersion": "1.0", "migrations": [ { "version": "0.9", "title": "a", "run": "true" },
          { "build": "7", "title": "b", "sql": "SELECT 1", "run": "true" } ] }
        """#.utf8), path: "m.json", folder: URL(fileURLWithPath: "/tmp"))
        #expect(app.sqlMigrations == [#"migrations[1] (build 7 "b")"#])
    }

    @Test func aVersionAndABuildMayShareANumber() {
        #expect(manifestProblems(#"{ "appVersion": "1.0", "migrations": [ { "version": "7", "title": "a" }, { "build": "7", "title": "b" } ] }"#).isEmpty)
    }

    @Test func anEmptyVersionIsReportedOnce() {
        #expect(manifestProblems(#"{ "appVersion": "1.0", "migrations": [ { "version": "", "title": "t" } ] }"#).count == 1)
    }

    @Test("text that is not JSON is one clear problem, never a crash", arguments: [
        #"{ "appVersion": "1.0", "migrations": [ { "version": "1", "title": "t } ] }"#,
        #"{ "appVersion": "1.0", "migrations": [ { "version": "1", "title": "\q" } ] }"#,
        #"{ "appVersion": "1.0", "migrations": [ { "version": "1", "title": "\ud800" } ] }"#,
        #"{ "appVersion": "1.0", "migrations": [] } trailing"#,
        #"{ "appVersion": "1.0", "migrations": [ 01 ] }"#,
        #"{ "appVersion": "1.0", "migrations": [ -. ] }"#,
        #"{ "appVersion": "1.0", "migrations": [ tru ] }"#,
        #"{ "appVersion": "1.0", "migrations": [, ] }"#,
        #"{ "appVersion" "1.0" }"#,
        "{ \"appVersion\": \"1.0\u{0001}\" }",
        String(repeating: "[", count: 100_000),
        "",
    ])
    func notJSON(text: String) {
        let found = manifestProblems(text)
        #expect(found.count == 1 && found[0].hasPrefix("file: is not valid JSON ("), "\(found)")
    }

    @Test func invalidUTF8IsNotJSON() {
        var data = Data(#"{ "appVersion": "1.0", "migrations": [], "app": ""#.utf8)
        data.append(contentsOf: [0xC3, 0x28])
        data.append(contentsOf: Data(#"" }"#.utf8))
        #expect(throws: ManifestError.self) { try Manifest.parse(data, path: "m.json", folder: URL(fileURLWithPath: "/tmp")) }
    }

    @Test func escapesAreDecoded() throws {
        let app = try Manifest.parse(Data(#"""
        { "app": "N\u00f6tes \ud83d\ude00\n \"q\" \/", "appVersion": "1.0",
          "migrations": [ { "version": " 1.5 ", "title": "t", "timeout": 1e1 } ] }
        """#.utf8), path: "m.json", folder: URL(fileURLWithPath: "/tmp"))
        #expect(app.registry.appName == "Nötes 😀\n \"q\" /")
        #expect(app.registry.migrations.map(\.declared) == ["1.5"])
    }

    @Test func aBadValueIsQuotedAsJSON() {
        #expect(manifestProblems(#"{ "appVersion": "1.0", "migrations": [ { "version": "1", "title": { "b": [1, true, null], "a": "x\"" } } ] }"#)
            == [#"migrations[0].title: must be a string, not {"a":"x\"","b":[1,true,null]}"#])
    }
}
