import Foundation
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
        var session = Session(explorer: try Explorer(app: ExplorerApp(registry: Self.registry(), appVersion: "1.1"), options: ExplorerOptions()))
        await session.press(.runPending, size: Self.size)
        let report = try #require(session.state.lastReport)
        #expect(report.steps.map(\.outcome) == [.succeeded, .succeeded, .succeeded], "\(report.steps)")
        #expect(report.steps.map(\.log) == [["sync"], ["async"], ["main actor"]])
    }

    /// A terminal that gives each key once the screen shows its cue, then waits as ncurses
    /// does; after 10 s it gives the last key (quit) whatever the screen shows, so that a run
    /// that never ends fails the test rather than hanging it.
    final class ScriptedTerminal: Terminal, @unchecked Sendable {
        // Safe: the fields are only touched while `lock` is held.
        private let lock = NSLock()
        private var script: [(key: Key, cue: String)]
        private var drawn: [String] = []
        private let deadline = ContinuousClock.now + .seconds(10)
        let size = Size(width: 100, height: 24)
        let unicode = true

        init(_ script: [(key: Key, cue: String)]) { self.script = script }

        func draw(_ screen: Screen) { lock.withLock { drawn.append(screen.text) } }
        func nextEvent(waitingAtMost milliseconds: Int) -> TerminalEvent? {
            let key: Key? = lock.withLock {
                guard let next = script.first else { return nil }
                if drawn.last?.contains(next.cue) == true {
                    script.removeFirst()
                    return next.key
                }
                return ContinuousClock.now > deadline ? script.last?.key : nil
            }
            if let key { return .key(key) }
            Thread.sleep(forTimeInterval: Double(milliseconds) / 1000)
            return nil
        }
        func terminationSignal() -> Int32? { nil }
        func clear() {}
        func close() {}

        var screens: [String] { lock.withLock { drawn } }
    }

    @Test func escCancelsARunningSwiftBodyAndNothingAfterItRuns() async throws {
        let laterRan = Protected(false)
        var registry = MigrationRegistry(appName: "Recipes")
        registry.migrate(toVersion: "1.0", title: "Wait for cancelling") { _ async throws in
            for _ in 0..<1_000 { try await Task.sleep(for: .milliseconds(5)) }   // 5 s at most
        }
        registry.migrate(toVersion: "1.1", title: "Later") { _ in laterRan.value = true }
        let explorer = try Explorer(app: ExplorerApp(registry: registry, appVersion: "1.1"), options: ExplorerOptions())
        let run = try #require(Keymap.binding(for: .runPending)?.keys.first)
        let quit = try #require(Keymap.binding(for: .quit)?.keys.first)
        let terminal = ScriptedTerminal([(run, "Recipes"), (.escape, LiveRun.footer), (quit, "Run cancelled")])
        #expect(await TerminalApp(session: Session(explorer: explorer), terminal: terminal).run() == nil)
        #expect(!laterRan.value)
        let last = try #require(terminal.screens.last)
        #expect(last.contains("Run cancelled at version 1.0 \"Wait for cancelling\"; 2 migrations wait for the next run"), "\(last)")
    }
}
