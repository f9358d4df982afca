import Foundation

/// The terminal UI's loop, the only code that reads keys and draws: it takes one event at a
/// time (a key, a resize, a tick, an update of the run in progress), hands it to the session
/// (``Session/handle(_:size:)``, through ``Update``), carries out the effects that concern a
/// run (starting, cancelling, giving up), and draws ``Render/screen(_:size:unicode:)``.
struct TerminalApp {
    var session: Session
    let terminal: any Terminal

    /// How the loop ended when it did not simply end with `q`: the status the process exits
    /// with (128 + a termination signal, or SIGINT for Ctrl-C twice during a run), and what to
    /// say once the terminal is given back (a step given up on).
    struct Leaving: Equatable {
        let status: Int32
        let message: String?
    }

    /// How often a run's screen is drawn when nothing else happens: the running step's elapsed time.
    static let tickEvery: Duration = .milliseconds(250)
    /// How long quitting waits for a cancelled run to stop (its command has the grace period
    /// of ``CommandSettings/grace`` before SIGKILL), and how long giving up waits for a killed one.
    static let quitWait: Duration = .seconds(5), giveUpWait: Duration = .seconds(1)

    /// Opens the explorer in the terminal. Everything that can fail on bad input (the
    /// manifest, the store, the versions) is built before the terminal is touched, so such an
    /// error prints as usual and leaves the terminal as it was; the terminal is given back on
    /// every way out, and a caught signal ends the process with 128 + its number.
    /// - Throws: ``ExplorerError`` when there is no usable terminal.
    @MainActor
    static func launch(explorer: Explorer) async throws {
        let session = Session(explorer: explorer)
        let terminal = try NcursesTerminal.open()
        if let leaving = await TerminalApp(session: session, terminal: terminal).run() {
            if let message = leaving.message { Program.report(message) }
            exit(leaving.status)
        }
    }

    /// Runs until the user quits (`nil`) or the process must leave (``Leaving``), on the main
    /// actor; while a run goes, the loop sleeps between polls, so that an app's `@MainActor`
    /// bodies run there meanwhile. The terminal is given back before it returns.
    @MainActor
    func run() async -> Leaving? {
        defer { terminal.close() }
        var loop = Loop(session: session, size: terminal.size)
        loop.session.unicode = terminal.unicode
        loop.session.resize(to: loop.size)
        draw(loop)
        while !loop.isOver {
            if let signal = terminal.terminationSignal() {
                loop.caught(signal)
                continue
            }
            var changed = false
            if let event = terminal.nextEvent(waitingAtMost: loop.run == nil ? 250 : 0) {
                if case .resize(let size) = event {
                    loop.size = size
                    terminal.clear()
                }
                loop.handle(Event(event))
                changed = true
            } else if loop.run != nil {
                try? await Task.sleep(for: .milliseconds(15))
            }
            changed = loop.takeRunUpdates() || changed
            if loop.run != nil, ContinuousClock.now - loop.lastTick >= Self.tickEvery {
                loop.handle(.tick(.now))
                changed = true
            }
            if loop.session.state.wantsRedraw {
                terminal.clear()
                loop.session.state.wantsRedraw = false
            }
            if changed { draw(loop) }
        }
        loop.leave()
        return loop.leaving
    }

    private func draw(_ loop: Loop) {
        terminal.draw(Render.screen(loop.session.state, size: loop.size, unicode: terminal.unicode))
    }

    /// The loop's state beside the session's: the terminal's size, the run it started, and how
    /// and by when it leaves.
    private struct Loop {
        var session: Session
        var size: Size
        var run: RunTask?
        var lastTick = ContinuousClock.now
        var leaving: Leaving?
        /// Once quitting, when the loop leaves even if the run has not stopped.
        var leaveBy: ContinuousClock.Instant?

        /// Whether the loop is done: quitting with no run left, or past the deadline.
        var isOver: Bool {
            guard session.state.wantsQuit else { return false }
            guard run != nil, let leaveBy else { return true }
            return ContinuousClock.now >= leaveBy
        }

        mutating func handle(_ event: Event) {
            if case .tick(let now) = event { lastTick = now }
            guard let effect = session.handle(event, size: size) else { return quitting() }
            switch effect {
            case .run:
                run = session.startRun(size: size)
                lastTick = .now
            case .cancelRun:
                run?.cancel()
            case .abandonRun:
                giveUp(cause: "Ctrl-C", signal: SIGINT)
            default:
                break
            }
            quitting()
        }

        /// Takes the run's updates, if one goes on; returns whether there were any.
        mutating func takeRunUpdates() -> Bool {
            guard let updates = run?.takeUpdates(), !updates.isEmpty else { return false }
            for update in updates {
                handle(.run(update))
                if case .ended = update { run = nil }
            }
            return true
        }

        /// A termination signal: it quits, cancelling a run and waiting for it to stop, but
        /// leaves at once when there is nothing to wait for (no step has started) or the run
        /// was already cancelled.
        mutating func caught(_ signal: Int32) {
            leaving = leaving ?? Leaving(status: 128 + signal, message: nil)
            session.state.wantsQuit = true
            guard let run else { return }
            if session.state.activity?.cancelled == true || session.state.runPhase != .running {
                giveUp(cause: "signal \(signal)", signal: signal)
            } else {
                session.state.activity?.cancelled = true
                run.cancel()
            }
            quitting()
        }

        /// Gives up waiting for the run: its command's group is killed, and the loop leaves
        /// as soon as the run has come back, or a second at most.
        private mutating func giveUp(cause: String, signal: Int32) {
            run?.abandon()
            let state = session.state
            let message = state.runPhase?.leavingMessage(cause: cause, running: state.activity?.command?.title ?? state.runningStep?.label)
            leaving = Leaving(status: 128 + signal, message: message)
            session.state.wantsQuit = true
            leaveBy = .now + TerminalApp.giveUpWait
        }

        /// Leaving with a run that has not stopped in time (a body that ignores cancelling, a
        /// command that ignores SIGTERM past its grace period): its command's group is killed,
        /// and what is left unrecorded is said once the terminal is given back. A run that
        /// quitting stopped in time is said too ("Run cancelled at …").
        mutating func leave() {
            guard let run else {
                if leaveBy != nil, let message = session.state.message?.text { leaving = leaving ?? Leaving(status: 0, message: message) }
                return
            }
            run.abandon()
            let state = session.state
            let running = state.activity?.command?.title ?? state.runningStep?.label
            let message = state.runPhase?.leavingMessage(cause: "q", running: running)
            leaving = leaving ?? Leaving(status: 0, message: message)
        }

        /// Once quitting with a run going on, starts the wait for it to stop.
        private mutating func quitting() {
            if session.state.wantsQuit, run != nil, leaveBy == nil { leaveBy = .now + TerminalApp.quitWait }
        }
    }
}
