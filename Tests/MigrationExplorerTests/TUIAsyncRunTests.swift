import Foundation
import MigrationTestSupport
import MigrationCore
import Testing
@testable import MigrationExplorer

/// An app's own registry with asynchronous and `@MainActor` bodies, run from the terminal UI.
@Suite("Terminal UI: async bodies")
struct TUIAsyncRunTests {
    static let size = Size(width: 100, height: 24)

    static func registry() -> MigrationRegistry {
        var registry = MigrationRegistry(appName: "Recipes")
        registry.migrate(toVersion: "1.0", title: "Import") { context in context.log("sync") }
        registry.migrate(toVersion: "1.1", title: "Index") { context async throws in
            try await Task.sleep(for: .milliseconds(5))
            context.reportProgress(1)
            context.log("async")
        }
        registry.onUpdate(title: "What's New") { @MainActor context async in
            context.log("main actor")
        }
        return registry
    }

    @Test func asyncAndMainActorBodiesRunFromTheTerminalUI() async throws {
        var session = await Session.opened(explorer: try Explorer(app: ExplorerApp(registry: Self.registry(), appVersion: "1.1"), options: ExplorerOptions()))
        await session.press(.runPending, size: Self.size)
        let report = try #require(session.state.lastReport)
        #expect(report.steps.map(\.outcome) == [.succeeded, .succeeded, .succeeded], "\(report.steps)")
        #expect(report.steps.map(\.log) == [["sync"], ["async"], ["main actor"]])
    }

    /// A terminal that gives each event once the screen shows its cue; after 60 s it gives the last one (quit) whatever the screen shows, and notes the
    /// cue it gave up on, so that a run that never ends fails the test rather than hanging it.
    final class ScriptedTerminal: Terminal, @unchecked Sendable {
        // Safe: the fields are only touched while `lock` is held.
        private let lock = NSLock()
        private var script: [(event: TerminalEvent, cue: String)]
        private var drawn: [Screen] = []
        private var abandonedCue: String?
        private var closed = false
        // Long: under a full test run, the explorer's run thread, which runs share, may be busy a while.
        private let deadline = ContinuousClock.now + .seconds(60)
        let size = Size(width: 100, height: 24)
        let unicode = true

        init(_ script: [(event: TerminalEvent, cue: String)]) { self.script = script }

        func draw(_ screen: Screen) { lock.withLock { drawn.append(screen) } }
        func nextEvent(waitingAtMost milliseconds: Int) -> TerminalEvent? {
            let event: TerminalEvent? = lock.withLock {
                guard let next = script.first else { return nil }
                if drawn.last?.text.contains(next.cue) == true {
                    script.removeFirst()
                    return next.event
                }
                guard ContinuousClock.now > deadline else { return nil }
                abandonedCue = abandonedCue ?? next.cue
                return script.last?.event
            }
            return event
        }
        var readiness: any TerminalReadiness {
            PolledReadiness { [self] in
                lock.withLock {
                    guard !closed else { return nil }
                    guard let next = script.first else { return false }
                    return drawn.last?.text.contains(next.cue) == true || ContinuousClock.now > deadline
                }
            }
        }
        func terminationSignal() -> Int32? { nil }
        func clear() {}
        func close() { lock.withLock { closed = true } }

        var screens: [Screen] { lock.withLock { drawn } }
        /// Why the script was cut short: the cue the screen did not show within 60 s; `nil` when
        /// every event was given on its cue.
        var hang: String? { lock.withLock { abandonedCue.map { "the screen did not show \"\($0)\" within 60 s" } } }
        /// How many events are still to be given.
        var eventsLeft: Int { lock.withLock { script.count } }
    }

    @Test func escCancelsARunningSwiftBodyAndNothingAfterItRuns() async throws {
        let laterRan = Locked(false)
        var registry = MigrationRegistry(appName: "Recipes")
        registry.migrate(toVersion: "1.0", title: "Wait for cancelling") { _ async throws in
            try await Task.sleep(for: .seconds(60))   // ends at once when cancelled; a minute at most, so a failure does not hang
        }
        registry.migrate(toVersion: "1.1", title: "Later") { _ in laterRan.withLock { $0 = true } }
        let explorer = try Explorer(app: ExplorerApp(registry: registry, appVersion: "1.1"), options: ExplorerOptions())
        let run = try #require(Keymap.binding(for: .runPending)?.keys.first)
        let quit = try #require(Keymap.binding(for: .quit)?.keys.first)
        // Esc once the body runs (from the run's start, it would cancel before anything ran).
        let terminal = ScriptedTerminal([(.key(run), "pending"), (.key(.escape), "▸ running…"), (.key(quit), "Run cancelled")])
        #expect(await TerminalApp(session: Session(explorer: explorer), terminal: terminal).run() == nil)
        #expect(terminal.hang == nil, "\(terminal.hang ?? "")")
        #expect(!laterRan.value)
        let last = try #require(terminal.screens.last?.text)
        #expect(last.contains("Run cancelled at version 1.0 \"Wait for cancelling\"; 2 migrations wait for the next run"), "\(last)")
    }

    @Test func aResizeDuringARunIsKeptAfterIt() async throws {
        let run = try #require(Keymap.binding(for: .runPending)?.keys.first)
        let quit = try #require(Keymap.binding(for: .quit)?.keys.first)
        let smaller = Size(width: 60, height: 16)
        let terminal = ScriptedTerminal([(.key(run), "pending"), (.resize(smaller), LiveRunPhase.running.footer(cancelled: false)), (.key(.escape), "Ran 1 step"), (.key(quit), "q quit")])
        var registry = MigrationRegistry(appName: "Recipes")
        // Runs until the terminal has been resized (the run key and the resize given).
        registry.migrate(toVersion: "1.0", title: "Slow") { _ async in _ = await waitUntil { terminal.eventsLeft <= 2 } }
        let explorer = try Explorer(app: ExplorerApp(registry: registry, appVersion: "1.0"), options: ExplorerOptions())
        #expect(await TerminalApp(session: Session(explorer: explorer), terminal: terminal).run() == nil)
        #expect(terminal.hang == nil, "\(terminal.hang ?? "")")
        let afterTheRun = terminal.screens.drop { !$0.text.contains("Ran 1 step") }
        #expect(!afterTheRun.isEmpty)
        #expect(afterTheRun.allSatisfy { $0.size == smaller }, "\(afterTheRun.map(\.size))")
        #expect(afterTheRun.allSatisfy { !$0.text.contains(LiveRunPhase.running.footer(cancelled: false)) })
    }
}
