import Foundation
import MigrationCore
import Testing
@testable import MigrationExplorer

/// The running migration's progress bar and elapsed time, drawn from the session's state.
@Suite("Terminal UI progress")
struct TUIProgressTests {
    static let size = Size(width: 100, height: 24)

    func session() async throws -> Session {
        var registry = MigrationRegistry(appName: "Notes")
        registry.migrate(toVersion: "1.0", title: "Import notes") { context in
            context.reportProgress(0.4)
            context.reportProgress(1)
        }
        return await Session.opened(explorer: try Explorer(app: ExplorerApp(registry: registry, appVersion: "1.0"), options: ExplorerOptions()))
    }

    /// The message row of every frame drawn once a step has started (the first frame, the
    /// run's start, shows before any step has).
    func framesOfARun(unicode: Bool) async throws -> [String] {
        var session = try await session()
        session.unicode = unicode
        let frames = Locked<[String]>([])
        let key = try #require(Keymap.binding(for: .runPending)?.keys.first)
        await session.handle(key, size: Self.size) { state in
            let screen = Render.screen(state, size: Self.size, unicode: unicode).text
            let row = screen.split(separator: "\n").first { $0.contains(" done") || $0.contains("Starting the run") } ?? ""
            frames.withLock { $0.append(row.trimmingCharacters(in: .whitespaces)) }
        }
        #expect(frames.value.first == (unicode ? "Starting the run…" : "Starting the run..."), "\(frames.value)")
        return Array(frames.value.dropFirst())
    }

    @Test func theRunningMigrationShowsItsProgressBarAndElapsedTime() async throws {
        let frames = try await framesOfARun(unicode: true)
        try #require(frames.count == 4, "\(frames)")   // started, 40%, 100%, finished
        #expect(frames[0].contains("running… 0 of 1 done · version 1.0 \"Import notes\" │ 0.0 ms"))
        #expect(frames[1].contains("version 1.0 \"Import notes\" ▕████░░░░░░▏  40% │ "))
        #expect(frames[1].hasSuffix("ms"))
        #expect(frames[2].contains("▕██████████▏ 100%"))
        #expect(frames[3].contains("running… 1 of 1 done") && !frames[3].contains("Import notes"))
    }

    @Test func withoutUnicodeTheBarIsASCII() async throws {
        let frames = try await framesOfARun(unicode: false)
        try #require(frames.count == 4, "\(frames)")
        #expect(frames[1].contains("version 1.0 \"Import notes\" [####------]  40% | "))
    }

    @Test func duringARunEachRowShowsItsStepAsItStands() async throws {
        var registry = MigrationRegistry(appName: "Notes")
        registry.migrate(toVersion: "0.9", title: "First") { _ in }
        registry.migrate(toVersion: "1.0", title: "Second") { context in context.reportProgress(0.5) }
        var session = await Session.opened(explorer: try Explorer(app: ExplorerApp(registry: registry, appVersion: "1.0"), options: ExplorerOptions()))
        let rows = Locked<[[String]]>([])
        let details = Locked<[String]>([])
        let key = try #require(Keymap.binding(for: .runPending)?.keys.first)
        await session.handle(key, size: Self.size) { state in
            let screen = Render.screen(state, size: Self.size, unicode: true).text.split(separator: "\n")
            let statusLine = DetailsText.lines(for: state, width: 60, glyphs: Glyphs(unicode: true)).dropFirst().first?.text ?? "(no status line)"
            details.withLock { $0.append(statusLine) }
            let table = ["First", "Second"].map { title in screen.first { $0.contains(title) }.map { $0.dropFirst(2).components(separatedBy: "  ")[0] } ?? "" }
            rows.withLock { $0.append(table.map { $0.trimmingCharacters(in: .whitespaces) }) }
        }
        #expect(rows.value == [
            ["● pending", "● pending"],         // the run starts
            ["▸ running…", "● pending"],        // 0.9 started
            ["✓ succeeded", "● pending"],       // 0.9 finished
            ["✓ succeeded", "▸ running…"],      // 1.0 started
            ["✓ succeeded", "▸ running…"],      // 1.0 at 50%
            ["✓ succeeded", "✓ succeeded"],     // 1.0 finished
        ])
        #expect(details.value == ["● pending · runs 1 of 2", "▸ running…", "✓ succeeded", "▸ running…", "▸ running…", "✓ succeeded"],
                "the selection follows the running step, and its details agree")
    }

    @Test("when narrow, the label is cut and the progress and time stay", arguments: [100, 60, 50])
    func narrowTerminalsKeepTheProgress(width: Int) async throws {
        var registry = MigrationRegistry(appName: "Notes")
        registry.migrate(toVersion: "1.0", title: "Import the notes of every account") { context in context.reportProgress(0.4) }
        registry.onUpdate(title: "What's New")
        var session = await Session.opened(explorer: try Explorer(app: ExplorerApp(registry: registry, appVersion: "1.0"), options: ExplorerOptions()))
        let size = Size(width: width, height: 24)
        let rows = Locked<[String]>([])
        let key = try #require(Keymap.binding(for: .runPending)?.keys.first)
        await session.handle(key, size: size) { state in
            let row = Render.screen(state, size: size, unicode: true).text.split(separator: "\n")[Layout(size).messageRow]
            rows.withLock { $0.append(row.trimmingCharacters(in: .whitespaces)) }
        }
        let progress = try #require(rows.value.dropFirst(2).first, "\(rows.value)")   // after the run's start and its first step's
        #expect(progress.hasSuffix("▕████░░░░░░▏  40% │ 0.0 ms") || progress.contains("40% │ "), "\(progress)")
        #expect(progress.displayWidth <= width - 2, "\(progress)")
        #expect(progress.contains("of 2 done") == (width >= 100), "the count goes first when narrow: \(progress)")
        #expect(rows.value.last == "running… 2 of 2 done", "a hook counts among the steps")
    }

    @Test func aFloodOfProgressReportsChangesTheScreenOncePerPercent() async throws {
        var registry = MigrationRegistry(appName: "Notes")
        registry.migrate(toVersion: "1.0", title: "Chatty") { context in
            for step in 1...10_000 { context.reportProgress(Double(step) / 10_000) }
        }
        var session = await Session.opened(explorer: try Explorer(app: ExplorerApp(registry: registry, appVersion: "1.0"), options: ExplorerOptions()))
        var shown: [Double?] = []
        let key = try #require(Keymap.binding(for: .runPending)?.keys.first)
        await session.handle(key, size: Self.size) { state in
            if state.runningStep?.fraction != shown.last { shown.append(state.runningStep?.fraction) }
        }
        // None, the first report, each whole percent after it, none once finished.
        #expect(shown.count == 103, "\(shown.count)")
    }

    @Test func progressAFinishedBodyStillReportsIsNotShownAsTheRunningOnes() async throws {
        let finished = Locked<MigrationContext?>(nil)
        var registry = MigrationRegistry(appName: "Notes")
        registry.migrate(toVersion: "1.0", title: "Leaves a task behind") { context in finished.withLock { $0 = context } }
        registry.migrate(toVersion: "1.1", title: "Reports nothing") { _ in finished.value?.reportProgress(0.5) }
        var session = await Session.opened(explorer: try Explorer(app: ExplorerApp(registry: registry, appVersion: "1.1"), options: ExplorerOptions()))
        let lines = Locked<[String]>([])
        let key = try #require(Keymap.binding(for: .runPending)?.keys.first)
        await session.handle(key, size: Self.size) { state in
            lines.withLock { $0.append(state.runningStep.map { $0.line(glyphs: Glyphs(unicode: true)) } ?? "") }
        }
        #expect(!lines.value.contains { $0.contains("%") }, "\(lines.value)")
    }

    @Test func elapsedTimeComesFromWhenTheStepStarted() {
        let start = ContinuousClock.now
        var step = RunningStep(label: "version 2.0 \"Move notes\"", started: start)
        step.fraction = 0.55
        step.tick(now: start + .milliseconds(1500))
        #expect(step.line(glyphs: Glyphs(unicode: true)) == "version 2.0 \"Move notes\" ▕█████░░░░░▏  55% │ 1.50 s")
    }
}
