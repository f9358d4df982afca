import Foundation
import MigrationCore
import Testing
@testable import MigrationExplorer

/// The command line's live line, drawn from a status value and a width.
@Suite("Run status line")
struct RunStatusLineTests {
    let start = Date(timeIntervalSince1970: 1_000_000)
    let unicode = Glyphs(unicode: true)

    @Test func aRunningStepShowsItsNumberElapsedTimeTitleAndLastLine() {
        let status = RunStatus(activity: .running(step: 2, of: 5, name: "0.9", title: "Index notes", lastLine: "indexing 40%"), since: start)
        #expect(status.line(now: start + 12, width: 80, glyphs: unicode) == "⠋ [2/5] 12s 0.9 Index notes │ indexing 40%")
        #expect(status.line(now: start + 0.15, width: 80, glyphs: Glyphs(unicode: false)) == "/ [2/5] 0s 0.9 Index notes | indexing 40%")
    }

    @Test func waitingNamesTheStoreAndTheProcessHoldingIt() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let since = try #require(calendar.date(from: DateComponents(year: 2026, month: 11, day: 25, hour: 14, minute: 2, second: 11)))
        let holder = LockHolder(pid: 4242, command: "migration-explorer run", since: since)
        let status = RunStatus(activity: .waiting(store: "state.json", holder: holder.description), since: start)
        #expect(status.line(now: start + 3, width: 120, glyphs: unicode)
            == "⠋ 3s waiting for state.json, held by pid 4242 (`migration-explorer run`, since 14:02:11)")
        let unknown = RunStatus(activity: .waiting(store: "state.json", holder: nil), since: start)
        #expect(unknown.line(now: start, width: 80, glyphs: unicode) == "⠋ 0s waiting for state.json, held by another process")
    }

    @Test func aNarrowTerminalCutsTheLineWithAnEllipsisBeforeItsLastColumn() {
        let status = RunStatus(activity: .running(step: 1, of: 3, name: "0.9", title: "Import every note", lastLine: "a long line of output"), since: start)
        let line = status.line(now: start + 7, width: 30, glyphs: unicode)
        #expect(line == "⠋ [1/3] 7s 0.9 Import every…")
        #expect(line.displayWidth <= 29)
        #expect(RunStatus.fit("日本語のタイトル", width: 7, glyphs: unicode) == "日本語…")
    }

    @Test func controlCharactersInOutputCannotMoveTheCursor() {
        let status = RunStatus(activity: .running(step: 1, of: 1, name: "0.9", title: "T", lastLine: "\u{1B}[2Jcleared"), since: start)
        #expect(!status.line(now: start, width: 80, glyphs: unicode).contains("\u{1B}"))
    }

    @Test("the spinner turns and the time ticks each second", arguments: [(0.0, "⠋ 0s"), (0.1, "⠙ 0s"), (1.25, "⠹ 1s"), (65, "⠋ 1m05s"), (3725, "⠋ 1h02m")])
    func ticking(seconds: Double, prefix: String) {
        let status = RunStatus(activity: .starting, since: start)
        #expect(status.line(now: start + seconds, width: 80, glyphs: unicode).hasPrefix(prefix))
    }
}
