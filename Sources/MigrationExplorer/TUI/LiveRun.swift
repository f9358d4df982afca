import Foundation
import MigrationCore

/// A run in the terminal UI while it happens. The session awaits the run; from the moment it
/// starts (the session shows its first state, before the run takes the store, which another
/// process may hold), a watcher thread reads keys (Ctrl-C or Esc cancel the run: a running
/// command's group is ended and that migration fails with "cancelled"; the task awaiting the
/// run is cancelled, so a Swift body sees `Task.isCancelled` and nothing after it starts, and
/// a run cancelled while it waits for the store starts nothing once it has it), watches for
/// SIGHUP, SIGINT and SIGTERM (which cancel it the same way and are handed back to the caller,
/// which then exits; before any step has started there is nothing to wait for, and the process
/// leaves at once, as the command line's `run` does), gives up waiting when asked again
/// (Ctrl-C or a signal) before the running step has stopped, follows resizes, and draws: every
/// step's new state, a Swift body's progress bar and elapsed time (``RunningStep``), a
/// command's elapsed time and latest output line on the status line, what a run that has not
/// started a step yet waits for (``LiveRunPhase``), and the footer with the only keys that act
/// meanwhile (a terminal too small shows only its notice, which names them). It waits for keys
/// a few milliseconds at a time and draws a new state within that, or every quarter second
/// regardless, so a step never waits for a long key wait to end. Every terminal call holds
/// `terminalLock`.
///
/// ```swift
/// let ending = await LiveRun.around(terminal: terminal, size: size, state: session.state) { live in
///     await session.handle(key, size: size) { live.show($0) }
/// }
/// if let signal = ending.signal { exit(128 + signal) }
/// ```
final class LiveRun: @unchecked Sendable {
    private let terminal: any Terminal
    private let cancellation = RunCancellation()
    private let terminalLock = NSLock()
    // Safe: everything below is only touched while `lock` is held.
    private let lock = NSLock()
    private var size: Size
    private var state: ViewState
    private var command: (title: String, started: ContinuousClock.Instant)?
    private var lastLine = ""
    /// When the run began: the first state shown.
    private var began: ContinuousClock.Instant?
    private var watching = false
    private var finished = false
    private var signal: Int32?
    /// A state shown since the watcher last drew.
    private var stateChanged = false
    /// How long the watcher waits for a key at a time, and how often it redraws regardless.
    static let keyWait = 20, redrawEvery: Duration = .milliseconds(250)
    private let watcherDone = DispatchSemaphore(value: 0)

    private init(terminal: any Terminal, size: Size, state: ViewState) {
        self.terminal = terminal
        self.size = size
        self.state = state
    }

    /// How a live run ended: the termination signal that cancelled it, if one did, and the
    /// terminal's size, which may have changed meanwhile.
    struct Ending {
        let signal: Int32?
        let size: Size
    }

    /// Calls `body` with commands reporting here; returns once any watcher has stopped.
    @discardableResult
    nonisolated(nonsending) static func around(
        terminal: any Terminal, size: Size, state: ViewState, _ body: nonisolated(nonsending) (LiveRun) async -> Void
    ) async -> Ending {
        let live = LiveRun(terminal: terminal, size: size, state: state)
        var settings = CommandSettings.current
        settings.cancellation = live.cancellation
        settings.onOutput = { [live] line in live.lock.withLock { live.lastLine = line } }
        settings.onCommandStart = { [live] title in live.commandStarted(title) }
        await CommandSettings.$current.withValue(settings) { await body(live) }
        let wasWatching: Bool = live.lock.withLock {
            live.finished = true
            return live.watching
        }
        if wasWatching { live.watcherDone.wait() }
        return live.lock.withLock { Ending(signal: live.signal, size: live.size) }
    }

    /// The session's state as the run goes, from its start on: the watcher draws it at once.
    func show(_ state: ViewState) {
        lock.withLock {
            if began == nil { began = .now }
            self.state = state
            stateChanged = true
        }
        startWatching()
    }

    private func commandStarted(_ title: String) {
        lock.withLock {
            command = (title, .now)
            lastLine = ""
            stateChanged = true
        }
        startWatching()
    }

    private func startWatching() {
        let start: Bool = lock.withLock {
            defer { watching = true }
            return !watching
        }
        if start { Thread.detachNewThread { [self] in watch() } }
    }

    private func watch() {
        var lastDraw = ContinuousClock.now
        while !lock.withLock({ finished }) {
            if let number = terminal.terminationSignal() {
                if cancellation.cancellationReason != nil || phase != .running { giveUpWaiting(signal: number) }
                lock.withLock { signal = signal ?? number }
                cancellation.cancel()
            }
            switch terminalLock.withLock({ terminal.nextEvent(waitingAtMost: Self.keyWait) }) {
            case .key(let key) where key == .control("c") || key == .escape:
                if key == .control("c"), cancellation.cancellationReason != nil { giveUpWaiting(signal: SIGINT, cause: "Ctrl-C") }
                cancellation.cancel()
                lock.withLock { stateChanged = true }
            case .resize(let newSize):
                lock.withLock { size = newSize }
                terminalLock.withLock { terminal.clear() }
            default: break
            }
            let changed = lock.withLock { () -> Bool in defer { stateChanged = false }; return stateChanged }
            guard changed || ContinuousClock.now - lastDraw >= Self.redrawEvery else { continue }
            lastDraw = .now
            draw()
        }
        watcherDone.signal()
    }

    /// Where the run is: a step has started once the session shows one running or finished, or a command started.
    private var phase: LiveRunPhase {
        lock.withLock {
            guard command == nil, state.runningStep == nil, state.running?.isEmpty != false else { return .running }
            return .starting(waited: began.map { .now - $0 } ?? .zero)
        }
    }

    /// Asked again to stop (Ctrl-C or a signal) while the running step has not yet, or asked
    /// to stop by a signal before any step started: gives the terminal back and leaves at once
    /// (128 + `signal`), killing a running command's group; the step is not recorded and runs
    /// again next time.
    private func giveUpWaiting(signal: Int32, cause: String? = nil) -> Never {
        cancellation.abandon()
        let running = lock.withLock { command?.title ?? state.runningStep?.label }
        let message = phase.leavingMessage(cause: cause ?? "signal \(signal)", running: running)
        terminalLock.withLock { terminal.close() }
        Program.report(message)
        // Not `exit`: the running body still runs, and must not race the exit handlers.
        fflush(nil)
        _exit(128 + signal)
    }

    private func draw() {
        var now: (state: ViewState, size: Size, command: (title: String, started: ContinuousClock.Instant)?, line: String)
            = lock.withLock { (self.state, self.size, self.command, self.lastLine) }
        now.state.runningStep?.tick()
        let cancelling = cancellation.cancellationReason != nil
        let phase = phase
        let keys = phase.footer(cancelled: cancelling)
        let layout = Layout(now.size)
        guard !layout.isTooSmall else {
            terminalLock.withLock { terminal.draw(Render.tooSmall(now.size, unicode: terminal.unicode, keys: keys)) }
            return
        }
        // The terminal may have been resized since the session fitted the state to it.
        now.state.fit(to: now.size, unicode: terminal.unicode)
        var screen = Render.screen(now.state, size: now.size, unicode: terminal.unicode)
        var status = phase.message(cancelled: cancelling, isSandbox: now.state.isSandbox)
        if status == nil, let command = now.command {
            let elapsed = formatDuration((ContinuousClock.now - command.started).inSeconds)
            let separator = terminal.unicode ? "│" : "|"
            status = .init(text: "\(command.title) \(separator) \(elapsed) \(separator) \(now.line)", role: .pending)
        }
        if let status {
            screen.write(String(repeating: " ", count: now.size.width), row: layout.messageRow, column: 0)
            screen.write(status.text, row: layout.messageRow, column: 1, role: status.role)
        }
        screen.write(String(repeating: " ", count: now.size.width), row: layout.footerRow, column: 0)
        screen.write(" " + keys, row: layout.footerRow, column: 0, role: .dim)
        terminalLock.withLock { terminal.draw(screen) }
    }
}
