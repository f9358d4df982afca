import Foundation
import Testing
import MigrationCore

// The async article's example, compiled and run here so that it cannot drift from the API. The
// lines between the markers appear in AsyncMigrations.md exactly as written (a test below checks it).

// Documentation: async example
/// A stand-in for SwiftData's `ModelContext`, which lives on the main actor.
@MainActor final class NotesContext {
    private(set) var titles: [String] = []
    func insert(title: String) { titles.append(title) }
    func save() throws {}
}

/// The notes the old version kept in a file, read in batches.
struct LegacyNotes: Sendable {
    let batches: [[String]]
}

func notesRegistry(context: NotesContext, legacy: LegacyNotes) -> MigrationRegistry {
    var registry = MigrationRegistry(appName: "Notes")
    registry.migrate(toVersion: "1.9", title: "Drop the thumbnail cache") { _ in
        // a synchronous body, in the same registry
    }
    registry.migrate(toVersion: "2.0", title: "Move notes to SwiftData") { @MainActor migration async throws in
        for (index, batch) in legacy.batches.enumerated() {
            try Task.checkCancellation()               // cancelled: nothing is recorded, it runs next launch
            for title in batch { context.insert(title: title) }
            try context.save()
            migration.reportProgress(Double(index + 1) / Double(legacy.batches.count))
            await Task.yield()
        }
    }
    registry.onUpdate(title: "Show What's New") { @MainActor _ async in
        // runs once, after every migration is done
    }
    return registry
}

/// At launch: two seconds at most, the rest on a later launch.
func migrateAtLaunch(
    store: any MigrationStore, context: NotesContext, legacy: LegacyNotes, clock: some Clock<Duration> = ContinuousClock()
) async throws -> RunReport {
    let runner = MigrationRunner(registry: notesRegistry(context: context, legacy: legacy), target: try AppTarget(version: "2.0"))
    let report = try await runner.run(store: store, budget: .seconds(2), clock: clock) { event in
        if case .progress(let subject, let fraction) = event { print("\(subject.title): \(Int(fraction * 100))%") }
    }
    if !report.deferred.isEmpty { print("\(report.deferred.count) migrations left for the next launch") }
    return report
}
// Documentation: end

@Suite("Async article example")
struct AsyncArticleExampleTests {
    @Test func itMovesEveryNoteAndFinishes() async throws {
        let context = NotesContext()
        let store = InMemoryMigrationStore(state: .device(at: try Version("1.8")))
        let report = try await migrateAtLaunch(store: store, context: context, legacy: LegacyNotes(batches: [["a", "b"], ["c"]]),
                                               clock: TestClock())
        #expect(report.succeeded && report.deferred.isEmpty)
        #expect(report.steps.map(\.subject.title) == ["Drop the thumbnail cache", "Move notes to SwiftData", "Show What's New"])
        #expect(await context.titles == ["a", "b", "c"])
        #expect(store.load().lastMigratedVersion == "2.0")
    }

    @Test func theAsyncArticleShowsThisFileAsItIs() throws {
        let file = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let example = try #require(file.components(separatedBy: "// Documentation: async example\n").dropFirst().first?
            .components(separatedBy: "// Documentation: end").first)
        let article = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/MigrationCore/MigrationCore.docc/AsyncMigrations.md")
        #expect(try String(contentsOf: article, encoding: .utf8).contains("```swift\n" + example + "```"))
    }
}
