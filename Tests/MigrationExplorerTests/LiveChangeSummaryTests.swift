import MigrationCore
@testable import MigrationExplorer
import Testing

/// The one line that says what changed: in the store (which migrations became applied or
/// pending, by whom) and in the manifest (added, removed, retitled), cut to the width given.
@Suite struct LiveChangeSummaryTests {
    private func registry(_ declared: [(String, String)]) -> MigrationRegistry {
        var registry = MigrationRegistry(appName: "Notes")
        for (version, title) in declared { registry.migrate(toVersion: version, title: title) }
        return registry
    }

    private let notes = [("1.0", "Create notes"), ("1.1", "Move notes"), ("1.2", "Seed tags")]

    private func plan(at version: String?, _ declared: [(String, String)]? = nil) throws -> MigrationPlan {
        try MigrationPlan(registry: registry(declared ?? notes), state: .device(at: version.map { try Version($0) }),
                          target: AppTarget(version: "1.2"))
    }

    @Test func aRunElsewhereNamesTheMigrationsItAppliedAndWhoRanIt() throws {
        let line = ChangeSummary.store(from: try plan(at: "1.0"), to: try plan(at: "1.2"), by: "web-1:4121", width: 80)
        #expect(line == "1.1 Move notes applied, 1.2 Seed tags applied (by web-1:4121)")
    }

    @Test func aSetBackNamesTheMigrationsNowPending() throws {
        let line = ChangeSummary.store(from: try plan(at: "1.2"), to: try plan(at: "1.1"), width: 80)
        #expect(line == "1.2 Seed tags pending")
    }

    @Test func aChangeThatMovesNoMigrationSaysSo() throws {
        let line = ChangeSummary.store(from: try plan(at: "1.1"), to: try plan(at: "1.1"), width: 80)
        #expect(line == "store changed; no migration changed status")
    }

    @Test func theLineIsCutToTheWidthGiven() throws {
        let line = ChangeSummary.store(from: try plan(at: nil), to: try plan(at: "1.2"), by: "web-1:4121", width: 30)
        #expect(line == "1.0 Create notes applied, 1.1…")
        #expect(line.count == 30)
    }

    @Test func aTitleThatWouldActOnTheTerminalIsDrawnHarmless() throws {
        let hostile = [("1.0", "Create notes"), ("1.1", "Move\u{1B}]0;pwned\u{07} notes"), ("1.2", "Seed tags")]
        let line = ChangeSummary.store(from: try plan(at: "1.0", hostile), to: try plan(at: "1.1", hostile), width: 80)
        #expect(!line.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" })
        #expect(line.hasPrefix("1.1 Move"))
    }

    @Test func aManifestSaveNamesWhatItAddedRemovedAndRetitled() {
        let before = registry(notes)
        let one = registry(notes + [("1.3", "Archive")])
        #expect(ChangeSummary.manifest(from: before, to: one, width: 80) == "manifest: 1.3 Archive added")
        let two = registry([("1.0", "Create notes"), ("1.1", "Move notes"), ("1.2", "Seed all tags"), ("1.3", "Archive"), ("1.4", "Purge")])
        #expect(ChangeSummary.manifest(from: before, to: two, width: 80) == "manifest: 2 migrations added, 1.2 title changed")
        #expect(ChangeSummary.manifest(from: two, to: before, width: 80) == "manifest: 2 migrations removed, 1.2 title changed")
        #expect(ChangeSummary.manifest(from: before, to: before, width: 80) == "manifest: saved, no migration changed")
    }
}
