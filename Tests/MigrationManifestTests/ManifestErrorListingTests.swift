import Foundation
import MigrationCore
import MigrationManifest
import Testing

/// How a manifest's problems are listed: every syntax problem at its line and column, and the
/// problems in the manifest's order, whoever found them.
@Suite("Manifest: error listing")
struct ManifestErrorListingTests {
    @Test("what strict JSON refuses is placed at its line and column", arguments: [
        ("{ \"appVersion\": \"1.0\",\n  \"migrations\": [ { \"version\": \"1\", \"title\": \"t\", },\n ] }",
         #"file: is not strict JSON at line 2, column 51: a trailing comma before "}" in "migrations"; remove it"#),
        ("{ \"appVersion\": \"1.0\",\n  \"migrations\": [],\n  \"releases\": [\"0.9\",\n  ] }",
         #"file: is not strict JSON at line 4, column 3: a trailing comma before "]" in "releases"; remove it"#),
        ("{ \"appVersion\": \"1.0\", \"migrations\": [],\n\"appVersion\": \"2.0\" }",
         #"file: is not strict JSON at line 2, column 1: the key "appVersion" appears twice"#),
    ])
    func strictJSONProblemsHaveALineAndColumn(json: String, expected: String) {
        #expect(manifestProblems(json) == [expected])
    }

    @Test func problemsAreListedInTheManifestsOrder() {
        let found = manifestProblems(#"""
        { "appVersion": "x", "releases": ["y"],
          "migrations": [ { "version": "0.1", "title": "a" }, { "version": "0.1", "title": "b" }, { "version": "1-beta", "title": "c" },
                          { "version": "0.3", "title": "d", "whatsNew": [2] }, { "version": "0.4" } ],
          "onUpdate": [ { } ] }
        """#)
        #expect(found.map { String($0.prefix { $0 != ":" }) } == [
            "appVersion", "releases[0]", "migrations[1].version", "migrations[2].version", "migrations[3].whatsNew",
            "migrations[4].title", "onUpdate[0].title",
        ], "\(found)")
    }
}
