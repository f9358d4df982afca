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

    /// A terminal that gives each event once the screen shows its cue; after 60 s it gives the
    /// last one (quit) whatever the screen shows, and notes the cue it gave up on, so that a run
    /// that never ends fails the test rather than hanging it. Drawing wakes the loop's input
    /// thread (``SignalledReadiness``); nothing is polled.
    final class ScriptedTerminal: Terminal, @unchecked Sendable {
        // Safe: the fields are only touched while `lock` is held; it is broadcast when a screen
        // is drawn or the terminal closed.
        private let lock = NSCondition()
        private var script: [(event: TerminalEvent, cue: String)]
        private var drawn: [Screen] = []
        private var abandonedCue: String?
        private var closed = false
        private let deadline = Date(timeIntervalSinceNow: 60)
        private let given: AsyncStream<Int>.Continuation
        private let onGiven: @Sendable (_ left: Int) -> Void
        /// How many events are left to give, after each event given.
        let eventsLeftAfterEach: AsyncStream<Int>
        let size = Size(width: 100, height: 24)
        let unicode = true

        /// `onGiven` is told how many events are left each time one is given.
        init(_ script: [(event: TerminalEvent, cue: String)], onGiven: @escaping @Sendable (_ left: Int) -> Void = { _ in }) {
            self.script = script
            self.onGiven = onGiven
            (eventsLeftAfterEach, given) = AsyncStream.makeStream(of: Int.self)
        }

        func draw(_ screen: Screen) {
            lock.withLock {
                drawn.append(screen)
                lock.broadcast()
            }
        }
        func nextEvent(waitingAtMost milliseconds: Int) -> TerminalEvent? {
            lock.withLock {
                guard let next = script.first else { return nil }
                if drawn.last?.text.contains(next.cue) == true {
                    script.removeFirst()
                    given.yield(script.count)
                    onGiven(script.count)
                    return next.event
                }
                guard Date() > deadline else { return nil }
                abandonedCue = abandonedCue ?? next.cue
                return script.last?.event
            }
        }
        var readiness: any TerminalReadiness {
            SignalledReadiness(condition: lock, deadline: deadline) { [self] in
                guard !closed else { return nil }
                guard let next = script.first else { return false }
                return drawn.last?.text.contains(next.cue) == true || Date() > deadline
            }
        }
        func terminationSignal() -> Int32? { nil }
        func clear() {}
        func close() {
            lock.withLock {
                closed = true
                lock.broadcast()
            }
            given.finish()
        }

        var screens: [Screen] { lock.withLock { drawn } }
        /// Why the script was cut short: the cue the screen did not show within 60 s; `nil` when
        /// every event was given on its cue.
        var hang: String? { lock.withLock { abandonedCue.map { "the screen did not show \"\($0)\" within 60 s" } } }

        /// Returns once no more than `count` events are left to give (or the terminal closed).
        func untilEventsLeft(atMost count: Int) async {
            for await left in eventsLeftAfterEach where left <= count { return }
        }
    }

    /// A run whose first body waits until cancelled, started with `r` and cancelled with Esc
    /// once it shows as running; returns the terminal and whether the body after it ran.
    static func runAndCancel() async throws -> (terminal: ScriptedTerminal, laterRan: Bool) {
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
        return (terminal, laterRan.value)
    }

    @Test func escCancelsARunningSwiftBodyAndNothingAfterItRuns() async throws {
        let (terminal, laterRan) = try await Self.runAndCancel()
        #expect(terminal.hang == nil, "\(terminal.hang ?? "")")
        #expect(!laterRan)
        let last = try #require(terminal.screens.last?.text)
        #expect(last.contains("Run cancelled at version 1.0 \"Wait for cancelling\"; 2 migrations wait for the next run"), "\(last)")
    }

    /// The run, its updates and Esc need no thread of the concurrency pool: other work of the
    /// process (an app's blocking body, other tests) may hold every one of them. The test waits
    /// on a thread of its own, and so does the loop; in a test process even the main actor runs
    /// on the pool.
    @Test(.onThreadOfItsOwn) func aRunStartsShowsAndIsCancelledWhileEveryThreadOfTheConcurrencyPoolIsBusy() async throws {
        let pool = try #require(BusyConcurrencyPool.occupy(), "the pool's threads did not all come free within 60 s")
        defer { pool.release() }
        let (terminal, laterRan) = try await Self.runAndCancel()
        #expect(terminal.hang == nil, "\(terminal.hang ?? "")")
        #expect(!laterRan)
        #expect(terminal.screens.last?.text.contains("Run cancelled at version 1.0") == true)
    }

    /// The loop has a thread of its own: a `@MainActor` body that keeps the main actor busy
    /// (a long synchronous import on the main thread) does not freeze the screen, and Esc is
    /// taken and said while it runs. The body is let go once the screen says it is cancelling.
    @Test func aMainActorBodyThatKeepsTheMainActorBusyDoesNotFreezeTheScreen() async throws {
        let letGo = DispatchSemaphore(value: 0)
        var registry = MigrationRegistry(appName: "Recipes")
        registry.migrate(toVersion: "1.0", title: "Import on the main thread") { @MainActor _ async in
            _ = letGo.wait(timeout: .now() + 90)   // blocks the main actor; bounded, so a failure does not hang
        }
        let explorer = try Explorer(app: ExplorerApp(registry: registry, appVersion: "1.0"), options: ExplorerOptions())
        let run = try #require(Keymap.binding(for: .runPending)?.keys.first)
        let quit = try #require(Keymap.binding(for: .quit)?.keys.first)
        let cancelling = LiveRunPhase.running.footer(cancelled: true)
        let terminal = ScriptedTerminal([(.key(run), "pending"), (.key(.escape), "▸ running…"), (.key(quit), cancelling)]) { left in
            if left == 0 { letGo.signal() }
        }
        let leaving = await TerminalApp(session: Session(explorer: explorer), terminal: terminal).run()
        #expect(terminal.hang == nil, "\(terminal.hang ?? "")")
        #expect((leaving?.status ?? 0) == 0, "\(String(describing: leaving))")
    }

    @Test func aResizeDuringARunIsKeptAfterIt() async throws {
        let run = try #require(Keymap.binding(for: .runPending)?.keys.first)
        let quit = try #require(Keymap.binding(for: .quit)?.keys.first)
        let smaller = Size(width: 60, height: 16)
        let terminal = ScriptedTerminal([(.key(run), "pending"), (.resize(smaller), LiveRunPhase.running.footer(cancelled: false)), (.key(.escape), "Ran 1 step"), (.key(quit), "q quit")])
        var registry = MigrationRegistry(appName: "Recipes")
        // Runs until the terminal has been resized (the run key and the resize given).
        registry.migrate(toVersion: "1.0", title: "Slow") { _ async in await terminal.untilEventsLeft(atMost: 2) }
        let explorer = try Explorer(app: ExplorerApp(registry: registry, appVersion: "1.0"), options: ExplorerOptions())
        #expect(await TerminalApp(session: Session(explorer: explorer), terminal: terminal).run() == nil)
        #expect(terminal.hang == nil, "\(terminal.hang ?? "")")
        let afterTheRun = terminal.screens.drop { !$0.text.contains("Ran 1 step") }
        #expect(!afterTheRun.isEmpty)
        #expect(afterTheRun.allSatisfy { $0.size == smaller }, "\(afterTheRun.map(\.size))")
        #expect(afterTheRun.allSatisfy { !$0.text.contains(LiveRunPhase.running.footer(cancelled: false)) })
    }
}
