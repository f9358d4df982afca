import Foundation
import MigrationCore

/// Shows on standard error how a `run` goes, as `swift build` and cargo do.
///
/// - On a terminal (`.live`): one status line (``RunStatus``) redrawn in place at least four
///   times a second: the step, the time it has taken, the last line its command printed, or
///   the process the run waits for; each finished step leaves a line above it.
/// - Otherwise (`.plain`: a pipe, a file, `--json`): no escape sequences, a line when the run
///   starts waiting for the store and one as each step finishes.
///
/// ```swift
/// let progress = RunProgress(mode: .live, store: "state.json", steps: 3, glyphs: Glyphs(unicode: true))
/// progress.show(event)                       // from the run's observer
/// progress.above(output: "done") { StandardStreams.write("0.9 │ done\n") }
/// progress.stop()
/// ```
final class RunProgress: @unchecked Sendable {
    enum Mode {
        case live
        case plain
    }

    private let mode: Mode
    private let store: String
    private let steps: Int
    private let glyphs: Glyphs
    // Safe: `status`, `started`, `lastStarted`, `drawn` and `stopped` are only touched while `condition` is held.
    private let condition = NSCondition()
    private var status: RunStatus
    /// The steps started so far.
    private var started = 0
    /// The label of the step started last, until it finishes.
    private var lastStarted: String?
    /// Whether the status line is on the screen.
    private var drawn = false
    private var stopped = false

    /// How often the live line is redrawn when nothing else happens.
    private static let tick = 0.25

    init(mode: Mode, store: String, steps: Int, glyphs: Glyphs) {
        self.mode = mode
        self.store = store
        self.steps = steps
        self.glyphs = glyphs
        status = RunStatus(activity: .starting, since: Date())
        // Without a thread the line is still drawn at each event, only not ticked between them.
        if mode == .live { try? DetachedThread.start(name: "live line") { self.tickUntilStopped() } }
    }

    /// `.live` when standard error is a terminal that can move the cursor, `.plain` otherwise.
    static func mode(json: Bool, environment: [String: String] = ProcessInfo.processInfo.environment) -> Mode {
        let terminal = isatty(STDERR_FILENO) == 1 && environment["TERM"].map { $0 != "dumb" } ?? false
        return terminal && !json ? .live : .plain
    }

    func show(_ event: RunEvent) {
        switch event {
        case .started(let subject):
            update { status, started in
                started += 1
                lastStarted = subject.label
                status = RunStatus(activity: .running(step: started, of: max(steps, started), name: LiveOutput.name(subject), title: subject.title, lastLine: nil),
                                   since: Date())
            }
        case .progress:
            break  // written as a line of output (see ``LiveOutput``), which ``above(output:_:)`` shows
        case .finished(let step):
            let line = condition.withLock {
                // A step refused before it started (its store held too long) counts as well.
                if lastStarted != step.subject.label { started += 1 }
                lastStarted = nil
                return RunStatus.finished(step, number: started, of: max(steps, started), glyphs: glyphs)
            }
            above { StandardStreams.write(line + "\n", to: .standardError) }
        }
    }

    /// The run found the store's lock held by another process, or got it after waiting.
    /// A wait while a step runs (a hook's record behind another run's, on PostgreSQL, which
    /// tells no end) is a line above, and the step keeps the live line.
    func lockChanged(_ change: StoreWaitChange) {
        switch change {
        case .waiting(let holder):
            let message = "waiting for \(store), held by \(holder ?? "another process")"
            let stepRuns = condition.withLock { if case .running = status.activity { true } else { false } }
            if mode == .plain || stepRuns { above { Program.report(message) } }
            if stepRuns { return }
            update { status, _ in status = RunStatus(activity: .waiting(store: store, holder: holder), since: Date()) }
        case .acquired:
            update { status, _ in
                if case .running = status.activity { return }
                status = RunStatus(activity: .starting, since: Date())
            }
        }
    }

    /// Runs `write` with the status line off the screen, then draws it again; `output`: the
    /// line of the running step's output that `write` writes, which the status line then ends with.
    func above(output: String? = nil, _ write: () -> Void) {
        condition.withLock {
            if let output, case .running(let step, let count, let name, let title, _) = status.activity {
                status.activity = .running(step: step, of: count, name: name, title: title, lastLine: output)
            }
            clear()
            write()
            draw()
        }
    }

    /// Takes the status line off the screen for good.
    func stop() {
        condition.withLock {
            clear()
            stopped = true
            condition.broadcast()
        }
    }

    private func update(_ change: (inout RunStatus, inout Int) -> Void) {
        condition.withLock {
            change(&status, &started)
            draw()
        }
    }

    /// Draws the status line in place of the last one; the caller holds `condition`.
    private func draw() {
        guard mode == .live, !stopped else { return }
        fflush(nil)  // what a body printed through the C library comes first
        let line = status.line(now: Date(), width: TerminalWidth.standardError(), glyphs: glyphs)
        StandardStreams.write(TerminalSequences.eraseLine + line, to: .standardError)
        drawn = true
    }

    /// Erases the status line; the caller holds `condition`.
    private func clear() {
        guard drawn else { return }
        StandardStreams.write(TerminalSequences.eraseLine, to: .standardError)
        drawn = false
    }

    private func tickUntilStopped() {
        condition.withLock {
            while !stopped {
                draw()
                _ = condition.wait(until: Date().addingTimeInterval(Self.tick))
            }
        }
    }
}

/// The width of the terminal standard error writes to.
enum TerminalWidth {
    /// Its columns, or 80 when it does not say.
    static func standardError() -> Int {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }
}
