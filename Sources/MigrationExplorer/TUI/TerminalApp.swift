import Foundation
import MigrationCore
import MigrationManifest

/// The terminal UI's loop, the only code that reads keys and draws. It awaits what its event
/// sources post (``Mailbox``): the terminal's input, the store's answers, a run's updates, the
/// clock while a run goes on, the store's and the manifest's changes (``Subscriptions``); it
/// does nothing in between. Each event goes to the session
/// (``Session/handle(_:size:)``, through ``Update``); the effect it asks for is carried out
/// here, off the loop (``StoreWork`` on a task of its own, a ``RunTask``), and its result
/// posted back as an event. Then it draws ``Render/screen(_:size:unicode:)``.
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
    /// How long quitting waits for a cancelled run to stop: 5 s, or a second more than its
    /// command's grace period before SIGKILL (``CommandSettings/grace``, `--kill-after`) when that is longer.
    static var quitWait: Duration { max(.seconds(5), CommandSettings.current.grace + .seconds(1)) }
    /// How long giving up waits for a killed run.
    static let giveUpWait: Duration = .seconds(1)

    /// Opens the explorer in the terminal. Everything that can fail on bad input (the
    /// manifest, the store, the versions) is built before the terminal is touched, so such an
    /// error prints as usual and leaves the terminal as it was; the terminal is given back on
    /// every way out. Returns the status to exit with: success when the user quits, 128 + the
    /// number of a caught signal (or SIGINT for Ctrl-C twice during a run), once what it leaves
    /// to say is said.
    /// - Throws: ``ExplorerError`` when there is no usable terminal.
    @MainActor
    static func launch(explorer: Explorer, manifestPath: String? = nil) async throws -> Int32 {
        let manifest = manifestPath.map { FollowedManifest(path: $0, shown: explorer.app.registry) }
        let session = Session(explorer: explorer, manifest: manifest)
        let terminal = try NcursesTerminal.open()
        guard let leaving = await TerminalApp(session: session, terminal: terminal).run() else { return ExitStatus.success.rawValue }
        if let message = leaving.message { Program.report(message) }
        return leaving.status
    }

    /// Runs until the user quits (`nil`) or the process must leave (``Leaving``). The loop runs
    /// on a thread of its own, the one thread that reads keys and draws: not on the main actor,
    /// which an app's `@MainActor` bodies have to themselves (one that keeps it busy does not
    /// freeze the screen), and not on the concurrency pool, which other work of the process may
    /// keep busy (a key is answered whatever the pool does). The first frame is drawn before
    /// the store is read. The terminal is given back before it returns.
    func run() async -> Leaving? {
        guard #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return await loop() }
        let executor = ThreadExecutor(name: "terminal UI", mayWait: false)
        defer { executor.finish() }
        return await withTaskExecutorPreference(executor) { await loop() }
    }

    /// ``run()`` on the current executor.
    private func loop() async -> Leaving? {
        let (inbox, mailbox) = Mailbox.make()
        let input = TerminalInput(watching: terminal.readiness, mailbox: mailbox)
        let subscriptions = Subscriptions(explorer: session.explorer, manifest: session.manifest, mailbox: mailbox)
        defer {
            mailbox.close()
            input.stop()
            subscriptions.stop()
            terminal.close()
        }
        var loop = Loop(session: session, size: terminal.size, mailbox: mailbox)
        loop.session.unicode = terminal.unicode
        loop.session.resize(to: loop.size)
        draw(loop)
        loop.carryOut(Session.opening)
        for await posted in inbox {
            switch posted {
            case .terminalReady:
                readTerminal(&loop)
                input.watchAgain()
            case .event(let event):
                loop.handle(event)
            case .runUpdated:
                loop.takeRunUpdates()
            case .deadline:
                break
            }
            if loop.isOver { break }
            if loop.repaints {
                terminal.clear()
                loop.repaints = false
            }
            draw(loop)
        }
        loop.leave()
        return loop.leaving
    }

    /// Takes a caught termination signal, then every key and resize waiting.
    private func readTerminal(_ loop: inout Loop) {
        if let signal = terminal.terminationSignal() { loop.caught(signal) }
        while !loop.isOver, let event = terminal.nextEvent(waitingAtMost: 0) {
            if case .resize(let size) = event {
                loop.size = size
                terminal.clear()
            }
            loop.handle(Event(event))
        }
    }

    private func draw(_ loop: Loop) {
        terminal.draw(Render.screen(loop.session.state, size: loop.size, unicode: terminal.unicode))
    }

    /// The loop's state beside the session's: the terminal's size, the run it started and its
    /// clock, and how and by when it leaves.
    private struct Loop {
        var session: Session
        var size: Size
        let mailbox: Mailbox
        var run: RunTask?
        /// Ticks while a run goes on, so that its elapsed time moves.
        var ticks: Task<Void, any Error>?
        /// Whether the next frame repaints every cell (Ctrl-L).
        var repaints = false
        var quitting = false
        var leaving: Leaving?
        /// Once quitting, when the loop leaves even if the run has not stopped.
        var leaveBy: ContinuousClock.Instant?

        /// Whether the loop is done: quitting with no run left, or past the deadline.
        var isOver: Bool {
            guard quitting else { return false }
            guard run != nil, let leaveBy else { return true }
            return ContinuousClock.now >= leaveBy
        }

        mutating func handle(_ event: Event) {
            if let effect = session.handle(event, size: size) { carryOut(effect) }
        }

        /// Carries out `effect`: the store's work on a task of its own, whose answer comes
        /// back as an event; a run; stopping it; quitting; redrawing.
        mutating func carryOut(_ effect: Effect) {
            if effect.isStoreWork {
                let mailbox = mailbox
                session.storeWork.start(effect, on: session.explorer) { mailbox.post(.event(.store($0))) }
                return
            }
            switch effect {
            case .run:
                let mailbox = mailbox
                run = session.startRun(size: size) { mailbox.post(.runUpdated) }
                ticks = Self.tick(mailbox)
            case .cancelRun:
                run?.cancel()
            case .abandonRun:
                giveUp(cause: "Ctrl-C", signal: SIGINT)
            case .quit:
                quit()
            case .redraw:
                repaints = true
            default:
                break
            }
        }

        /// Posts a tick every ``TerminalApp/tickEvery`` until cancelled, from a thread of its
        /// own, which a busy concurrency pool cannot hold up.
        private static func tick(_ mailbox: Mailbox) -> Task<Void, any Error> {
            OwnThread.task(named: "terminal UI ticks") {
                while (try? await Task.sleep(for: TerminalApp.tickEvery)) != nil { mailbox.post(.event(.tick(.now))) }
            }
        }

        /// Takes the run's updates, if one goes on.
        mutating func takeRunUpdates() {
            for update in run?.takeUpdates() ?? [] {
                handle(.run(update))
                if case .ended = update {
                    run = nil
                    ticks?.cancel()
                }
            }
        }

        /// Quits; a run going on is cancelled, and waited for until ``TerminalApp/quitWait``.
        private mutating func quit() {
            quitting = true
            guard let run else { return }
            run.cancel()
            leave(by: .now + TerminalApp.quitWait)
        }

        /// A termination signal: it quits, cancelling a run and waiting for it to stop, but
        /// leaves at once when there is nothing to wait for (no step has started) or the run
        /// was already cancelled.
        mutating func caught(_ signal: Int32) {
            leaving = leaving ?? Leaving(status: 128 + signal, message: nil)
            quitting = true
            guard let run else { return }
            if session.state.activity?.cancelled == true || session.state.runPhase != .running {
                giveUp(cause: "signal \(signal)", signal: signal)
            } else {
                session.state.activity?.cancelled = true
                run.cancel()
                leave(by: .now + TerminalApp.quitWait)
            }
        }

        /// Gives up waiting for the run: its command's group is killed, and the loop leaves
        /// as soon as the run has come back, or a second at most.
        private mutating func giveUp(cause: String, signal: Int32) {
            run?.abandon()
            let state = session.state
            let message = state.runPhase?.leavingMessage(cause: cause, running: state.activity?.command?.title ?? state.runningStep?.label)
            leaving = Leaving(status: 128 + signal, message: message)
            quitting = true
            leaveBy = nil
            leave(by: .now + TerminalApp.giveUpWait)
        }

        /// The loop leaves by `deadline` at the latest (the first deadline set holds): a wake
        /// is posted then, from a thread of its own, which a busy concurrency pool cannot hold up.
        private mutating func leave(by deadline: ContinuousClock.Instant) {
            guard leaveBy == nil else { return }
            leaveBy = deadline
            let (mailbox, wait) = (mailbox, max(.zero, deadline - .now))
            OwnThread.task(named: "terminal UI deadline") {
                try? await Task.sleep(for: wait)
                mailbox.post(.deadline)
            }
        }

        /// Leaving with a run that has not stopped in time (a body that ignores cancelling, a
        /// command that ignores SIGTERM past its grace period): its command's group is killed,
        /// and what is left unrecorded is said once the terminal is given back. A run that
        /// quitting stopped in time is said too ("Run cancelled at …").
        mutating func leave() {
            ticks?.cancel()
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
    }
}
