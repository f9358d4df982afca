import Foundation
import Testing
import MigrationCore
import MigrationManifest
import MigrationTestSupport

/// An app's registry written as a manifest and read back plans every upgrade alike; no
/// terminal UI is linked here.
@Suite("Manifest round trip")
struct ManifestRoundTripTests {
    func load(_ data: Data) throws(ManifestError) -> MigrationManifest {
        try Manifest.parse(data, path: "exported.json", folder: URL(fileURLWithPath: "/tmp"))
    }

    @Test("export, load: the same plan for any from and to", arguments: 0..<100)
    func roundTrip(seed: Int) throws {
        var random = SplitMix(state: UInt64(seed) &+ 424_242)
        func version() -> String { random.version() }
        var registry = MigrationRegistry(appName: "App \(seed) “quoted” / \\ ✓")
        registry.releases = try (0..<Int.random(in: 0...4, using: &random)).map { _ in try Version(version()) }
        // A manifest refuses duplicate versions (the registry only reports them), so each is new.
        var used: Set<[UInt64]> = []
        for index in 0..<Int.random(in: 0...12, using: &random) {
            let whatsNew = (0..<Int.random(in: 0...2, using: &random)).map { "line \($0) of \(index)\n\"new\"" }
            let notes = Bool.random(using: &random) ? "notes \(index)" : nil
            if Int.random(in: 0...3, using: &random) == 0 {
                let build = String(Int.random(in: 1...200, using: &random))
                guard used.insert([0] + (try Version(build)).components).inserted else { continue }
                registry.migrate(toBuild: build, title: "b\(index)", notes: notes, whatsNew: whatsNew)
            } else {
                let since = Bool.random(using: &random) ? version() : nil
                let declared = version()
                guard used.insert([1] + (try Version(declared)).components).inserted else { continue }
                registry.migrate(toVersion: declared, title: "v\(index)", notes: notes, whatsNew: whatsNew, since: since)
            }
        }
        if Bool.random(using: &random) { registry.onUpdate(title: "hook") }
        if Bool.random(using: &random) { registry.onBuildUpdate(title: "build hook") }
        let appVersion = version()
        let loaded = try load(registry.manifest(appVersion: appVersion, appBuild: "150"))
        #expect(loaded.appVersion == appVersion && loaded.appBuild == "150" && loaded.registry.appName == registry.appName)
        // Each release once, ascending.
        #expect(loaded.registry.releases == Set(registry.releases).sorted())

        for _ in 0..<5 {
            let from = Bool.random(using: &random) ? nil : try Version(registry.releases.randomElement(using: &random)?.text ?? version())
            let target = try AppTarget(version: version(), build: String(Int.random(in: 1...200, using: &random)))
            let plans = try [registry, loaded.registry].map { registry in
                try MigrationPlan(registry: registry, state: registry.device(lastRan: from, build: try Version("100")).state, target: target)
            }
            #expect(plans[0].entries.map(\.migration.label) == plans[1].entries.map(\.migration.label))
            #expect(plans[0].entries.map(\.status) == plans[1].entries.map(\.status))
            #expect(plans[0].entries.map(\.migration.whatsNew) == plans[1].entries.map(\.migration.whatsNew))
            #expect(plans[0].entries.map(\.migration.notes) == plans[1].entries.map(\.migration.notes))
            #expect(plans[0].hooks.map(\.fires) == plans[1].hooks.map(\.fires))
            #expect(plans[0].problems.map(\.message) == plans[1].problems.map(\.message))
        }
    }

    @Test func theReleasesArgumentWinsAndNoRunIsWritten() throws {
        var registry = MigrationRegistry(appName: "Notes")
        registry.migrate(toVersion: "0.7", title: "Trim", since: "1.0") { _ in }
        let data = registry.manifest(appVersion: "1.0", releases: [try Version("1.0"), try Version("0.9")])
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(json["releases"] as? [String] == ["0.9", "1.0"])
        #expect(json["appBuild"] == nil)
        let migration = try #require((json["migrations"] as? [[String: Any]])?.first)
        #expect(migration.keys.sorted() == ["since", "title", "version"])
    }

    @Test func aCommandLoadedWithoutARunnerFailsSayingWhy() throws {
        let manifest = try load(Data(#"{ "appVersion": "1.0", "migrations": [ { "version": "1.0", "title": "t", "run": "true" } ] }"#.utf8))
        #expect(manifest.runsCommands)
        let migration = try #require(manifest.registry.migrations.first)
        #expect(throws: ManifestCommandUnavailable.self) {
            try migration.body.callSynchronously(MigrationContext(from: nil, to: "1.0"))
        }
    }

    @Test func sqlLoadedWithoutARunnerFailsSayingWhyAndIsWrittenAgain() throws {
        let manifest = try load(Data(#"""
        { "appVersion": "1.0", "migrations": [ { "version": "1.0", "title": "t", "sql": "DELETE FROM note", "run": "true" } ] }
        """#.utf8))
        #expect(manifest.sqlMigrations == [#"migrations[0] (version 1.0 "t")"#])
        let migration = try #require(manifest.registry.migrations.first)
        let error = #expect(throws: ManifestSQLUnavailable.self) {
            try migration.body.callSynchronously(MigrationContext(from: nil, to: "1.0"))
        }
        #expect(error?.description == #"version 1.0 "t" runs SQL: run it with migration-explorer --sqlite FILE"#)
        let again = try load(manifest.written())
        #expect(again.sqlMigrations == manifest.sqlMigrations)
        #expect(again.commands == manifest.commands)
    }

    @Test("bad releases and since are reported at their fields", arguments: [
        (#"{ "appVersion": "1.0", "releases": ["0.9", "1.0b"], "migrations": [] }"#, #"releases[1]: "1.0b" is not a version"#),
        (#"{ "appVersion": "1.0", "releases": "1.0", "migrations": [] }"#, "releases: must be a list"),
        (#"{ "appVersion": "1.0", "migrations": [ { "version": "1.0", "title": "t", "since": "next" } ] }"#, #"migrations[0].since: "next" is not a version"#),
        (#"{ "appVersion": "1.0", "migrations": [ { "version": "1.0", "title": "t", "since": 1 } ] }"#, "migrations[0].since: must be a string"),
        (#"{ "appVersion": "1.0", "migrations": [ { "build": "10", "title": "t", "since": "1.0" } ] }"#, "migrations[0].since: applies to version migrations only"),
    ])
    func badInput(json: String, expected: String) {
        do {
            _ = try load(Data(json.utf8))
            Issue.record("accepted \(json)")
        } catch {
            #expect(error.problems.map(\.description).contains { $0.hasPrefix(expected) }, "\(error.problems)")
        }
    }
}
