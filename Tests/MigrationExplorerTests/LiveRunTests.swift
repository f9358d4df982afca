import Foundation
import MigrationCore
import Testing
@testable import MigrationExplorer

/// The terminal glue of a live run, on a terminal double that records what it is asked.
@Suite("Live run")
struct LiveRunTests {
    /// A terminal that gives `events` one per wait, then none: each wait lasts as long as it
    /// is asked to, as ncurses's does.
    final class WaitingTerminal: Terminal, @unchecked Sendable {
        // Safe: the fields are only touched while `lock` is held.
        private let lock = NSLock()
        private var waitsAskedFor: [Int] = []
        private var drawn: [Screen] = []
        /// For each screen drawn, how many waits had begun by then.
        private var waitsBeforeDrawing: [Int] = []
        private var events: [TerminalEvent]
        let size: Size
        let unicode = true

        init(size: Size = Size(width: 80, height: 24), events: [TerminalEvent] = []) {
            self.size = size
            self.events = events
        }

        func draw(_ screen: Screen) {
            lock.withLock {
                drawn.append(screen)
                waitsBeforeDrawing.append(waitsAskedFor.count)
            }
        }
        func nextEvent(waitingAtMost milliseconds: Int) -> TerminalEvent? {
            let event: TerminalEvent? = lock.withLock {
                waitsAskedFor.append(milliseconds)
                return events.isEmpty ? nil : events.removeFirst()
            }
            if let event { return event }
            Thread.sleep(forTimeInterval: Double(milliseconds) / 1000)
            return nil
        }
        func terminationSignal() -> Int32? { nil }
        func clear() {}
        func close() {}

        var waits: [Int] { lock.withLock { waitsAskedFor } }
        var screens: [Screen] { lock.withLock { drawn } }

        /// Waits (ten seconds at most) until a screen is drawn whose text contains `text`;
        /// returns how many waits had begun by then, `nil` if none was.
        func waitsBeforeDrawing(_ text: String) async -> Int? {
            func found() -> Int? {
                lock.withLock { drawn.firstIndex { $0.text.contains(text) }.map { waitsBeforeDrawing[$0] } }
            }
            _ = await waitUntil { found() != nil }
            return found()
        }
    }

    func demoState() throws -> ViewState {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("live-run-\(UUID().uuidString)")
        return Session(explorer: try Explorer(app: DemoApp.make(dataFolder: folder), options: ExplorerOptions())).state
    }

    @Test func whileACommandRunsTheFooterOffersOnlyCancelling() async throws {
        let terminal = WaitingTerminal()
        let state = try demoState()
        await LiveRun.around(terminal: terminal, size: terminal.size, state: state) { live in
            CommandSettings.current.onCommandStart("0.9 `./scripts/slow.sh`")
            _ = await waitUntil { !terminal.screens.isEmpty }
            live.show(state)
            _ = await waitUntil { terminal.screens.count > 1 }
        }
        let footers = terminal.screens.map { $0.text.split(separator: "\n", omittingEmptySubsequences: false)[23] }
        #expect(!footers.isEmpty)
        for footer in footers {
            #expect(footer.contains(LiveRunPhase.running.footer(cancelled: false)))
            #expect(!footer.contains("r run") && !footer.contains("q quit"), "\(footer)")
        }
    }

    @Test func whileASwiftBodyRunsTheFooterOffersOnlyCancellingToo() async throws {
        let terminal = WaitingTerminal()
        let state = try demoState()
        await LiveRun.around(terminal: terminal, size: terminal.size, state: state) { live in
            live.show(state)
            _ = await waitUntil { !terminal.screens.isEmpty }
        }
        let footers = terminal.screens.map { $0.text.split(separator: "\n", omittingEmptySubsequences: false)[23] }
        #expect(!footers.isEmpty)
        #expect(footers.allSatisfy { $0.contains(LiveRunPhase.running.footer(cancelled: false)) }, "\(footers)")
    }

    @Test func theWatcherNeverHoldsTheTerminalLongSoAStepIsDrawnAtOnce() async throws {
        let terminal = WaitingTerminal()
        var state = try demoState()
        // Waits begun once a step is shown and before it is drawn; at once is within one wait.
        var waitsBeforeEachStepWasDrawn: [Int?] = []
        await LiveRun.around(terminal: terminal, size: terminal.size, state: state) { live in
            CommandSettings.current.onCommandStart("0.9 `true`")
            for step in 1...5 {
                state.appName = "Step\(step)App"
                live.show(state)
                let shown = terminal.waits.count
                waitsBeforeEachStepWasDrawn.append(await terminal.waitsBeforeDrawing("Step\(step)App").map { $0 - shown })
            }
        }
        #expect(!terminal.waits.isEmpty)
        #expect(terminal.waits.allSatisfy { $0 <= LiveRun.keyWait }, "\(Set(terminal.waits))")
        #expect(waitsBeforeEachStepWasDrawn.allSatisfy { $0.map { $0 <= 1 } == true }, "\(waitsBeforeEachStepWasDrawn)")
    }

    /// The demo's state as a run shows it: the first pending migration running.
    func runningState() throws -> ViewState {
        var state = try demoState()
        state.running = []
        state.runningStep = RunningStep(label: "version 0.9 \"Add GUIDs to notes\"", started: .now)
        return state
    }

    @Test("too small during a run, the notice names the keys that act then, not q", arguments: [[], [TerminalEvent.key(.escape)]])
    func tooSmallDuringARunNamesTheKeysThatAct(events: [TerminalEvent]) async throws {
        let terminal = WaitingTerminal(size: Size(width: 40, height: 10), events: events)
        let state = try runningState()
        await LiveRun.around(terminal: terminal, size: terminal.size, state: state) { live in
            CommandSettings.current.onCommandStart("0.9 `./scripts/slow.sh`")
            live.show(state)
            _ = await waitUntil { !terminal.screens.isEmpty }
        }
        let keys = events.isEmpty ? LiveRunPhase.running.footer(cancelled: false) : LiveRunPhase.running.footer(cancelled: true)
        let last = try #require(terminal.screens.last?.text)
        let notice = last.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(notice.hasPrefix("terminal too small (need 50×14); \(keys)"), "\(last)")
        #expect(terminal.screens.allSatisfy { !$0.text.contains("q quits") }, "\(terminal.screens.map(\.text))")
    }

    @Test func aTerminalResizedDuringARunStillShowsTheSelectedRow() async throws {
        var state = try runningState()
        // The last row selected, the table scrolled as on a terminal tall enough to show every row.
        state.selection = state.items.count - 1
        state.tableTop = 0
        let terminal = WaitingTerminal(size: Size(width: 80, height: 14))
        await LiveRun.around(terminal: terminal, size: terminal.size, state: state) { live in
            live.show(state)
            _ = await waitUntil { !terminal.screens.isEmpty }
        }
        let drawn = try #require(terminal.screens.last?.text)
        #expect(drawn.split(separator: "\n").contains { $0.hasPrefix("▶") }, "\(drawn)")
    }
}
