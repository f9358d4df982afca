import Foundation
import MigrationCore
import Testing
@testable import MigrationExplorer

/// The running migration's progress bar and elapsed time, drawn from the session's state.
@Suite("Terminal UI progress")
struct TUIProgressTests {
    static let size = Size(width: 100, height: 24)

    func session() throws -> Session {
        var registry = MigrationRegistry(appName: "Notes")
        registry.migrate(toVersion: "1.0", title: "Import notes") { context in
            context.reportProgress(0.4)
            context.reportProgress(1)
        }
        return Session(explorer: try Explorer(app: ExplorerApp(registry: registry, appVersion: "1.0"), options: ExplorerOptions()))
    }

    /// The message row of every frame drawn while the run goes.
    func framesOfARun(unicode: Bool) async throws -> [String] {
        var session = try session()
        session.unicode = unicode
        let frames = Protected<[String]>([])
        let key = try #require(Keymap.binding(for: .runPending)?.keys.first)
        await session.handle(key, size: Self.size) { state in
            let screen = Render.screen(state, size: Self.size, unicode: unicode).text
            let row = screen.split(separator: "\n").first { $0.contains("running") } ?? ""
            frames.update { $0.append(row.trimmingCharacters(in: .whitespaces)) }
        }
        return frames.value
    }

    @Test func theRunningMigrationShowsItsProgressBarAndElapsedTime() async throws {
        let frames = try await framesOfARun(unicode: true)
        #expect(frames.count == 4)   // started, 40%, 100%, finished
        #expect(frames[0].contains("running… 0 of 1 done · version 1.0 \"Import notes\" │ 0.0 ms"))
        #expect(frames[1].contains("version 1.0 \"Import notes\" ▕████░░░░░░▏  40% │ "))
        #expect(frames[1].hasSuffix("ms"))
        #expect(frames[2].contains("▕██████████▏ 100%"))
        #expect(frames[3].contains("running… 1 of 1 done") && !frames[3].contains("Import notes"))
    }

    @Test func withoutUnicodeTheBarIsASCII() async throws {
        let frames = try await framesOfARun(unicode: false)
        #expect(frames[1].contains("version 1.0 \"Import notes\" [####------]  40% | "))
    }

    @Test func elapsedTimeComesFromWhenTheStepStarted() {
        let start = ContinuousClock.now
        var step = RunningStep(label: "version 2.0 \"Move notes\"", started: start)
        step.fraction = 0.55
        step.tick(now: start + .milliseconds(1500))
        #expect(step.line(glyphs: Glyphs(unicode: true)) == "version 2.0 \"Move notes\" ▕█████░░░░░▏  55% │ 1.50 s")
    }
}
