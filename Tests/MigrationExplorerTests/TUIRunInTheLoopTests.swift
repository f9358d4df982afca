import Foundation
@testable import MigrationCore
import Testing
@testable import MigrationExplorer

/// A run as the terminal UI's loop sees it: keys, resizes, ticks and the run's updates, in a
/// scripted order, through the session the loop drives; the states and screens checked after
/// each. No run happens, no thread, no clock: the run's updates are made up here.
@Suite("Terminal UI: a run in the loop")
struct TUIRunInTheLoopTests {
    /// The upgrade from 0.5 to 1.1: three migrations, each with What's New notes.
    static let explorer: Explorer = {
        var registry = MigrationRegistry(appName: "Notes")
        registry.migrate(toVersion: "0.9", title: "Add GUIDs to notes", whatsNew: ["Notes have links."])
        registry.migrate(toVersion: "1.0", title: "Move the attachments of every note into the new folder layout", whatsNew: ["Attachments open faster."])
        registry.migrate(toVersion: "1.1", title: "Index tags", whatsNew: ["Search by tag."])
        // swiftlint:disable:next force_try
        return try! Explorer(app: ExplorerApp(registry: registry, appVersion: "1.1"), options: ExplorerOptions(from: try! Version("0.5")))
    }()

    static let t0 = ContinuousClock.now

    /// The loop, scripted: each event goes to the real ``Session``, as the loop hands it; the
    /// effects asked for are kept, not carried out.
    struct Script {
        var session: Session
        var size = Size(width: 80, height: 24)
        var effects: [Effect] = []

        var state: ViewState {
            get { session.state }
            set { session.state = newValue }
        }

        @discardableResult
        mutating func send(_ events: Event...) -> Effect? {
            var last: Effect?
            for event in events {
                if case .resize(let newSize) = event { size = newSize }
                last = session.handle(event, size: size)
                if let last { effects.append(last) }
            }
            return last
        }

        mutating func press(_ action: Action) -> Effect? {
            send(.key(Keymap.binding(for: action)!.keys[0]))
        }

        var screen: String { Render.screen(state, size: size, unicode: true).text }
        var rows: [String] { screen.components(separatedBy: "\n") }
        var footer: String { rows[size.height - 1] }
        /// The table row of the migration at `version`.
        func row(_ version: String) -> String { rows.first { $0.contains("version \(version) ") } ?? "" }
    }

    static func migration(_ version: String) -> RegisteredMigration {
        explorer.app.registry.migrations.first { $0.declared == version }!
    }

    static func step(_ version: String, _ outcome: RunStep.Outcome) -> RunStep {
        RunStep(subject: .migration(migration(version)), outcome: outcome, duration: 0.25, log: [])
    }

    /// The end of a run that took `steps`, the device then at `recorded`.
    static func ending(_ steps: [RunStep], recordedAt recorded: String, cancelled: Bool = false) throws -> RunEnding {
        let plan = try Explorer(app: explorer.app, options: ExplorerOptions(from: try Version(recorded))).plan()
        var report = RunReport(mode: .run, plan: try explorer.plan(), steps: steps, state: plan.state, saveError: nil)
        report.wasCancelled = cancelled
        return RunEnding(report: .success(report), plan: .success(plan))
    }

    /// A run started with `r` and begun at ``t0``.
    static func running() async -> Script {
        var script = Script(session: await Session.opened(explorer: explorer))
        #expect(script.press(.runPending) == .run, "a sandbox whose bodies do nothing for real runs without asking")
        script.send(.run(.began(t0)))
        return script
    }

    @Test func keysResizesTicksAndTheRunsUpdatesGoThroughOneUpdate() async throws {
        var script = await Self.running()
        #expect(script.screen.contains("Starting the run…"))
        #expect(script.footer.contains("Ctrl-C or Esc cancels the run") && script.footer.contains("? help"), "\(script.footer)")
        script.send(.run(.started(.migration(Self.migration("0.9")), at: Self.t0)))
        #expect(script.row("0.9").hasPrefix("▶ ▸ running…"), "the selection follows the running step: \(script.row("0.9"))")
        script.send(.tick(Self.t0 + .milliseconds(1500)))
        #expect(script.screen.contains("version 0.9 \"Add GUIDs to notes\" │ 1.50 s"), "the elapsed time ticks:\n\(script.screen)")
        // The table scrolls and the selection moves while the step runs.
        #expect(script.press(.moveDown) == nil)
        #expect(script.row("1.0").hasPrefix("▶"), "\(script.screen)")
        // Help opens, and Esc closes it without cancelling the run.
        #expect(script.press(.help) == nil)
        #expect(script.screen.contains("Keys") && script.footer.hasPrefix(" Ctrl-C cancels the run"), "\(script.screen)")
        #expect(script.send(.key(.escape)) == nil)
        #expect(script.state.overlay == nil && script.state.activity?.cancelled == false)
        script.send(.run(.finished(Self.step("0.9", .succeeded))))
        #expect(script.row("0.9").contains("✓ succeeded"))
        // What's New shows the step done, and only it.
        #expect(script.press(.whatsNew) == nil)
        #expect(script.screen.contains("Notes have links.") && script.screen.contains("1 of 1"), "\(script.screen)")
        script.send(.key(.escape))
        // A resize redraws the frame at the new size at once, the running row in view.
        script.send(.run(.started(.migration(Self.migration("1.0")), at: Self.t0 + .seconds(2))), .resize(Size(width: 60, height: 20)))
        #expect(script.rows.count == 20 && script.rows.allSatisfy { $0.displayWidth <= 60 })
        #expect(script.row("1.0").hasPrefix("▶ ▸ running…"), "\(script.screen)")
        script.send(.run(.progress(.migration(Self.migration("1.0")), 0.5)), .tick(Self.t0 + .seconds(3)))
        #expect(script.screen.contains("50% │ 1.00 s"), "\(script.screen)")
        script.send(.run(.finished(Self.step("1.0", .succeeded))), .run(.started(.migration(Self.migration("1.1")), at: Self.t0 + .seconds(3))),
                    .run(.finished(Self.step("1.1", .succeeded))))
        script.send(.run(.ended(try Self.ending([Self.step("0.9", .succeeded), Self.step("1.0", .succeeded), Self.step("1.1", .succeeded)], recordedAt: "1.1"))))
        #expect(script.state.activity == nil && script.state.running == nil)
        #expect(script.screen.contains("Ran 3 steps in 750.0 ms"), "\(script.screen)")
        #expect(!script.footer.contains("cancels the run"))
        #expect(script.effects == [.run], "nothing but the run's start was asked of the loop")
    }

    @Test func ctrlCDuringAStepCancelsItKeepsTheStepsBeforeAndSaysWhatRunsNextTime() async throws {
        var script = await Self.running()
        script.send(.run(.started(.migration(Self.migration("0.9")), at: Self.t0)), .run(.finished(Self.step("0.9", .succeeded))),
                    .run(.started(.migration(Self.migration("1.0")), at: Self.t0)))
        #expect(script.send(.key(.control("c"))) == .cancelRun)
        #expect(script.screen.contains("Cancelling the run…"))
        #expect(script.footer.contains("Ctrl-C again quits at once · cancelling: waiting for the running step to stop"), "\(script.footer)")
        #expect(script.effects == [.run, .cancelRun], "the first Ctrl-C cancels the run, it does not quit")
        script.send(.run(.finished(Self.step("1.0", .cancelled))))
        script.send(.run(.ended(try Self.ending([Self.step("0.9", .succeeded), Self.step("1.0", .cancelled)], recordedAt: "0.9", cancelled: true))))
        let message = try #require(script.state.message?.text)
        let expected: String = "Run cancelled at version 1.0 \"Move the attachments of every note into the new folder layout\"; "
            + "the 1 step before it stays recorded; 2 migrations wait for the next run"
        #expect(message == expected)
        #expect(script.row("0.9").contains("applied") && script.row("1.0").contains("pending"), "\(script.screen)")
        #expect(script.effects == [.run, .cancelRun])
    }

    @Test func aSecondCtrlCGivesUpWaitingAndQuits() async {
        var script = await Self.running()
        script.send(.run(.commandStarted("0.9 `sleep 1000`", at: Self.t0)))
        #expect(script.send(.key(.control("c"))) == .cancelRun)
        #expect(script.send(.key(.control("c"))) == .abandonRun, "giving up quits")
    }

    @Test func quittingDuringARunCancelsItAndWaitsForIt() async {
        var script = await Self.running()
        #expect(script.press(.quit) == .quit)
        #expect(script.state.activity?.cancelled == true, "the run shows as cancelled while the loop waits for it")
    }

    @Test func escClosesTheFilterFirstThenCancelsTheRun() async {
        var script = await Self.running()
        #expect(script.press(.filter) == nil)
        script.send(.key(.character("t")), .key(.character("a")), .key(.character("g")))
        #expect(script.state.items.count == 1, "the filter works during a run")
        #expect(script.send(.key(.escape)) == nil)
        #expect(script.state.filterLine == nil && script.state.activity?.cancelled == false)
        #expect(script.send(.key(.escape)) == .cancelRun)
        #expect(script.send(.key(.escape)) == nil, "Esc does not give up: only Ctrl-C again does")
    }

    @Test("keys that would change what runs say why they wait", arguments: [Action.dryRun, .runPending, .reset, .setFrom, .setTo, .writeFrom, .matrix])
    func keysThatChangeWhatRunsAreRefusedDuringARun(action: Action) async {
        var script = await Self.running()
        #expect(script.press(action) == nil)
        #expect(script.state.overlay == nil && script.state.prompt == nil)
        #expect(script.screen.contains("Not while the run goes on: wait for it to end, or Esc cancels it"), "\(script.screen)")
        #expect(script.screen.contains("Starting the run…"), "the run's line stays above it")
    }

    @Test func aCommandShowsItsElapsedTimeAndLatestLineAndARunThatStartsNothingSaysItWaits() async {
        var script = await Self.running()
        script.send(.tick(Self.t0 + .milliseconds(1200)))
        #expect(script.screen.contains("Waiting for the store: another process holds it…") == false, "a sandbox is never held by another process")
        script.state.isSandbox = false
        #expect(script.screen.contains("Waiting for the store: another process holds it…"))
        script.send(.run(.commandStarted("0.9 `./slow.sh`", at: Self.t0 + .seconds(2))), .run(.output("copied 3 of 9")), .tick(Self.t0 + .seconds(4)))
        #expect(script.screen.contains("0.9 `./slow.sh` │ 2.00 s │ copied 3 of 9"), "\(script.screen)")
    }

    @Test("too small during a run, the notice names the keys that act then, and they act", arguments: [Key.control("c"), .escape])
    func tooSmallDuringARun(key: Key) async {
        var script = await Self.running()
        script.send(.resize(Size(width: 40, height: 10)))
        let notice = { script.rows.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ") }
        #expect(notice().hasPrefix("terminal too small (need 50×14); Ctrl-C or Esc cancels the run"), "\(notice())")
        #expect(script.send(.key(key)) == .cancelRun)
        #expect(notice().contains("Ctrl-C again quits at once"), "\(notice())")
    }

    @Test("a frame during a run", arguments: [Size(width: 80, height: 24), Size(width: 60, height: 20)])
    func aFrameDuringARun(size: Size) async throws {
        var script = await Self.running()
        script.send(.resize(size), .run(.started(.migration(Self.migration("0.9")), at: Self.t0)), .run(.finished(Self.step("0.9", .succeeded))),
                    .run(.started(.migration(Self.migration("1.0")), at: Self.t0 + .seconds(1))),
                    .run(.progress(.migration(Self.migration("1.0")), 0.4)), .tick(Self.t0 + .milliseconds(3250)))
        try assertSnapshot(script.screen, named: "run-\(size.width)x\(size.height)")
    }
}
