import Foundation
import MigrationCore
import MigrationTestSupport
import Testing
@testable import MigrationExplorer

/// `plan --json` is written by hand as it goes; it must stay the document `JSONEncoder` wrote
/// from the `Codable` shape, byte for byte, whatever the strings hold.
@Suite("plan --json writer")
struct PlanJSONWriterTests {
    /// A string shown escaped in test names, control characters and all.
    struct Tricky: CustomTestStringConvertible, Sendable {
        let text: String
        var testDescription: String { text.debugDescription }
    }

    static let trickyStrings: [Tricky] = [
        "", "\"", "\\", "\\\"", "/", "a/b</script>", "quote \"inside\" and back\\slash",
        String((0..<32).map { Character(Unicode.Scalar(UInt8($0))) }), "\u{7F}", "tab\there", "line\nbreak\r\nCRLF",
        "é", "e\u{301}", "😀 emoji", "日本語", "\u{2028}\u{2029}", "\u{FEFF}bom", "\u{FFFD}", "null", "0.9",
    ].map(Tricky.init)

    @Test("tricky strings", arguments: trickyStrings)
    func trickyStringsEverywhere(_ tricky: Tricky) async throws {
        let text = tricky.text
        var registry = MigrationRegistry(appName: text)
        registry.migrate(toVersion: "0.9", title: text, notes: text)
        registry.migrate(toVersion: text, title: text)
        registry.migrate(toBuild: text, title: "build \(text)")
        registry.migrate(toBuild: "7", title: text, whatsNew: [text])
        registry.onUpdate(title: text)
        registry.onBuildUpdate(title: "hook \(text)")
        let plan = try MigrationPlan(registry: registry, state: .device(at: try Version("0.5"), build: try Version("3")),
                                     target: try AppTarget(version: "1.0", build: "8"))
        try await expectSameDocument(plan, app: text, historyNote: text, unwritableStore: JSONReports.UnwritableStore(path: text, reason: text),
                               runsGoingOn: [JSONReports.RunGoingOn(host: text, pid: 4121, since: Date(timeIntervalSince1970: 1_795_000_000)),
                                             JSONReports.RunGoingOn(host: "web-2", pid: -1, since: Date(timeIntervalSince1970: 0))])
    }

    @Test func theDemoFromEachRelease() async throws {
        let registry = DemoApp.make().registry
        for from in [nil, "0.5", "0.8", "0.10", "1.0", "2.0"] {
            let state = MigrationState.device(at: try from.map { try Version($0) }, build: try Version("90"))
            let plan = try MigrationPlan(registry: registry, state: state, target: try AppTarget(version: "1.0", build: "100"))
            try await expectSameDocument(plan, app: registry.appName, historyNote: from == nil ? nil : "guessed from \(from!)")
        }
    }

    @Test func anEmptyRegistry() async throws {
        let plan = try MigrationPlan(registry: MigrationRegistry(), state: .freshInstall, target: try AppTarget(version: "1.0"))
        try await expectSameDocument(plan, app: "App", historyNote: nil)
    }

    /// Every status, skip reason and problem: duplicates, invalid versions and `since`,
    /// declared after a higher one, out of order, a downgrade.
    @Test func aRandomRegistryWithEveryStatusAndProblem() async throws {
        var random = SplitMix(state: 8)
        var registry = MigrationRegistry(appName: "Random")
        for index in 0..<3_000 {
            let version = "\(Int.random(in: 0...3, using: &random)).\(Int.random(in: 0...30, using: &random))"
            switch Int.random(in: 0..<20, using: &random) {
            case 0: registry.migrate(toVersion: "\(version)-beta", title: "invalid \(index)")
            case 1: registry.migrate(toBuild: "\(Int.random(in: 1...200, using: &random))", title: "build \(index)")
            case 2: registry.migrate(toVersion: version, title: "since \(index)", since: "soon")
            default: registry.migrate(toVersion: version, title: "migration \(index)", notes: "notes \(index)")
            }
        }
        registry.onUpdate(title: "Stats")
        registry.releases = try ["0.5", "1.0", "1.20", "2.0"].map { try Version($0) }
        var state = MigrationState.device(at: try Version("2.5"), build: try Version("120"))
        state.lastAppVersion = "2.5"
        let plan = try MigrationPlan(registry: registry, state: state, target: try AppTarget(version: "2.0", build: "150"))
        #expect(!plan.downgrades.isEmpty)
        #expect(Set(plan.problems.map(\.severity)) == [.error, .warning])
        try await expectSameDocument(plan, app: "Random", historyNote: "guessed")
    }

    @Test func theBufferIsHandedOnInChunksThatJoinUp() async throws {
        var registry = MigrationRegistry(appName: "Big")
        for index in 0..<5_000 { registry.migrate(toVersion: "1.\(index)", title: "Migration \(index) with a long enough title") }
        let plan = try MigrationPlan(registry: registry, state: .freshInstall, target: try AppTarget(version: "1.2500"))
        var chunks: [[UInt8]] = []
        var writer = JSONWriter { chunks.append($0) }
        JSONReports.Plan(plan, app: "Big", historyNote: nil).write(to: &writer)
        writer.finish()
        #expect(chunks.count > 2)
        #expect(chunks.dropLast().allSatisfy { $0.count < 70_000 })
        #expect(String(decoding: chunks.joined(), as: UTF8.self) == String(decoding: try codableDocument(plan, app: "Big", historyNote: nil), as: UTF8.self))
    }

    private func expectSameDocument(
        _ plan: MigrationPlan, app: String, historyNote: String?, unwritableStore: JSONReports.UnwritableStore? = nil,
        runsGoingOn: [JSONReports.RunGoingOn] = []
    ) async throws {
        var written: [UInt8] = []
        var writer = JSONWriter { written += $0 }
        JSONReports.Plan(plan, app: app, historyNote: historyNote, unwritableStore: unwritableStore, runsGoingOn: runsGoingOn).write(to: &writer)
        writer.finish()
        let encoded = try codableDocument(plan, app: app, historyNote: historyNote, unwritableStore: unwritableStore, runsGoingOn: runsGoingOn)
        let parsedWritten = try JSONSerialization.jsonObject(with: Data(written)) as? NSDictionary
        let parsedEncoded = try JSONSerialization.jsonObject(with: encoded) as? NSDictionary
        #expect(parsedWritten != nil)
        #expect(parsedWritten == parsedEncoded)
        #expect(String(decoding: written, as: UTF8.self) == String(decoding: encoded, as: UTF8.self))
    }

    private func codableDocument(
        _ plan: MigrationPlan, app: String, historyNote: String?, unwritableStore: JSONReports.UnwritableStore? = nil,
        runsGoingOn: [JSONReports.RunGoingOn] = []
    ) throws -> Data {
        Data(JSONReports.encode(CodablePlan(plan, app: app, historyNote: historyNote, unwritableStore: unwritableStore, runsGoingOn: runsGoingOn)).utf8)
    }
}

/// The `Codable` shape `plan --json` was encoded from before it was written by hand: the
/// reference the writer must match.
private struct CodablePlan: Encodable {
    let app: String
    let from: Nullable<String>
    let to: String
    let migrations: [Migration]
    let hooks: [Hook]
    let problems: [Problem]
    let historyNote: Nullable<String>
    let unwritableStore: Nullable<JSONReports.UnwritableStore>
    let runsGoingOn: [JSONReports.RunGoingOn]

    init(_ plan: MigrationPlan, app: String, historyNote: String?, unwritableStore: JSONReports.UnwritableStore?, runsGoingOn: [JSONReports.RunGoingOn]) {
        self.app = app
        self.runsGoingOn = runsGoingOn
        self.historyNote = Nullable(historyNote)
        self.unwritableStore = Nullable(unwritableStore)
        from = Nullable(plan.state.fromVersion)
        to = plan.target.version.text
        migrations = plan.entries.map(Migration.init)
        hooks = plan.hooks.map { Hook(kind: $0.hook.kind, title: $0.hook.title, fires: $0.fires) }
        problems = plan.downgrades.map { Problem(severity: "warning", migration: Nullable(nil), message: $0.description) }
            + plan.problems.map { Problem(severity: $0.severity.rawValue, migration: Nullable(JSONReports.Identity($0.migration)), message: $0.message) }
    }

    struct Migration: Encodable {
        let migration: RegisteredMigration
        let status: MigrationStatus

        init(_ entry: PlanEntry) {
            migration = entry.migration
            status = entry.status
        }

        enum CodingKeys: String, CodingKey { case version, build, title, status, reason }

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(migration.declared, forKey: migration.track == .version ? .version : .build)
            try container.encode(migration.title, forKey: .title)
            try container.encode(status.word, forKey: .status)
            let reason: String? = if case .skipped(let reason) = status { reason.rawValue } else { nil }
            try container.encode(Nullable(reason), forKey: .reason)
        }
    }

    struct Hook: Encodable {
        let kind: String
        let title: String
        let fires: Bool
    }

    struct Problem: Encodable {
        let severity: String
        let migration: Nullable<JSONReports.Identity>
        let message: String
    }
}
