import Foundation
import MigrationCore
import Testing
@testable import MigrationExplorer

/// The terminal glue of a live run, on a terminal double that records what it is asked.
@Suite("Live run")
struct LiveRunTests {
    /// A terminal with no keys to give: each wait lasts as long as it is asked to, as ncurses's does.
    final class WaitingTerminal: Terminal, @unchecked Sendable {
        // Safe: the fields are only touched while `lock` is held.
        private let lock = NSLock()
        private var waitsAskedFor: [Int] = []
        private var drawn: [Screen] = []
        let size = Size(width: 80, height: 24)
        let unicode = true

        func draw(_ screen: Screen) { lock.withLock { drawn.append(screen) } }
        func nextEvent(waitingAtMost milliseconds: Int) -> TerminalEvent? {
            lock.withLock { waitsAskedFor.append(milliseconds) }
            Thread.sleep(forTimeInterval: Double(milliseconds) / 1000)
            return nil
        }
        func terminationSignal() -> Int32? { nil }
        func clear() {}
        func close() {}

        var waits: [Int] { lock.withLock { waitsAskedFor } }
        var screens: [Screen] { lock.withLock { drawn } }
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
            try? await Task.sleep(for: .milliseconds(300))
            live.show(state)
        }
        let footers = terminal.screens.map { $0.text.split(separator: "\n", omittingEmptySubsequences: false)[23] }
        #expect(!footers.isEmpty)
        for footer in footers {
            #expect(footer.contains(LiveRun.footer))
            #expect(!footer.contains("r run") && !footer.contains("q quit"), "\(footer)")
        }
    }

    @Test func whileASwiftBodyRunsTheFooterOffersOnlyCancellingToo() async throws {
        let terminal = WaitingTerminal()
        let state = try demoState()
        await LiveRun.around(terminal: terminal, size: terminal.size, state: state) { live in
            live.show(state)
            try? await Task.sleep(for: .milliseconds(300))
        }
        let footers = terminal.screens.map { $0.text.split(separator: "\n", omittingEmptySubsequences: false)[23] }
        #expect(!footers.isEmpty)
        #expect(footers.allSatisfy { $0.contains(LiveRun.footer) }, "\(footers)")
    }

    @Test func theWatcherNeverHoldsTheTerminalLongSoAStepIsDrawnAtOnce() async throws {
        let terminal = WaitingTerminal()
        var state = try demoState()
        await LiveRun.around(terminal: terminal, size: terminal.size, state: state) { live in
            CommandSettings.current.onCommandStart("0.9 `true`")
            for step in 1...5 {
                state.appName = "Step\(step)App"
                live.show(state)
                try? await Task.sleep(for: .milliseconds(60))
            }
        }
        #expect(!terminal.waits.isEmpty)
        #expect(terminal.waits.allSatisfy { $0 <= LiveRun.keyWait }, "\(Set(terminal.waits))")
        let headers = terminal.screens.map { $0.text.split(separator: "\n", omittingEmptySubsequences: false)[0] }
        for step in 1...5 {
            #expect(headers.contains { $0.contains("Step\(step)App") }, "step \(step) was drawn while the watcher watched")
        }
    }
}
