import Foundation
import MigrationCore

/// A run in the terminal UI while it happens. The session runs the plan on the main thread;
/// once a command starts, a watcher thread reads keys (Ctrl-C or Esc cancel the run: the
/// command's group is ended and the migration fails with "cancelled"), watches for SIGHUP,
/// SIGINT and SIGTERM (which cancel it the same way and are handed back to the caller, which
/// then exits) and redraws the status line every quarter second with the running migration,
/// its elapsed time and its latest output line, and the footer with the only keys that act
/// meanwhile. While it watches, it alone draws: it waits for keys a few milliseconds at a time
/// and draws a step's new state within that, so a step never waits for a quarter-second key wait
/// to end. A Swift body's progress bar and elapsed time
/// (``RunningStep``) are drawn whenever the session reports progress. Every terminal call, from either thread,
/// holds `terminalLock`.
///
/// ```swift
/// let signal = LiveRun.around(terminal: terminal, size: size, state: session.state) { live in
///     session.handle(key, size: size) { live.show($0) }
/// }
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

    /// Calls `body` with commands reporting here; returns once any watcher has stopped, with
    /// the termination signal that cancelled the run, if one did.
    @discardableResult
    static func around(terminal: any Terminal, size: Size, state: ViewState, _ body: (LiveRun) -> Void) -> Int32? {
        let live = LiveRun(terminal: terminal, size: size, state: state)
        var settings = CommandSettings.current
        settings.cancellation = live.cancellation
        settings.onOutput = { [live] line in live.lock.withLock { live.lastLine = line } }
        settings.onCommandStart = { [live] title in live.commandStarted(title) }
        CommandSettings.$current.withValue(settings) { body(live) }
        let wasWatching: Bool = live.lock.withLock {
            live.finished = true
            return live.watching
        }
        if wasWatching { live.watcherDone.wait() }
        return live.receivedSignal
    }

    /// The termination signal that cancelled the run, if one did.
    var receivedSignal: Int32? { lock.withLock { signal } }

    /// The session's state after a step: drawn at once.
    func show(_ state: ViewState) {
        let watcherDraws: Bool = lock.withLock {
            self.state = state
            stateChanged = true
            return watching
        }
        if !watcherDraws { draw() }
    }

    private func commandStarted(_ title: String) {
        let start: Bool = lock.withLock {
            command = (title, .now)
            lastLine = ""
            defer { watching = true }
            return !watching
        }
        if start { Thread.detachNewThread { [self] in watch() } }
    }

    private func watch() {
        var lastDraw = ContinuousClock.now
        while !lock.withLock({ finished }) {
            if let number = terminal.terminationSignal() {
                lock.withLock { signal = signal ?? number }
                cancellation.cancel()
            }
            switch terminalLock.withLock({ terminal.nextEvent(waitingAtMost: Self.keyWait) }) {
            case .key(.control("c")), .key(.escape):
                cancellation.cancel()
                lock.withLock { state.message = .init(text: "Cancelling the run…", role: .failed) }
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

    /// The footer while a command runs: nothing else acts until it ends.
    static let footer = "Ctrl-C or Esc cancels the run"

    private func draw() {
        var now: (state: ViewState, size: Size, command: (title: String, started: ContinuousClock.Instant)?, line: String)
            = lock.withLock { (self.state, self.size, self.command, self.lastLine) }
        now.state.runningStep?.tick()
        var screen = Render.screen(now.state, size: now.size, unicode: terminal.unicode)
        if let command = now.command, cancellation.cancellationReason == nil {
            let elapsed = formatDuration((ContinuousClock.now - command.started).inSeconds)
            let separator = terminal.unicode ? "│" : "|"
            let line = "\(command.title) \(separator) \(elapsed) \(separator) \(now.line)"
            let layout = Layout(now.size)
            screen.write(String(repeating: " ", count: now.size.width), row: layout.messageRow, column: 0)
            screen.write(line, row: layout.messageRow, column: 1, role: .pending)
            screen.write(String(repeating: " ", count: now.size.width), row: layout.footerRow, column: 0)
            screen.write(" " + Self.footer, row: layout.footerRow, column: 0, role: .dim)
        }
        terminalLock.withLock { terminal.draw(screen) }
    }
}
