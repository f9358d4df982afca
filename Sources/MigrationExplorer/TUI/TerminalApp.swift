import Foundation

/// The terminal UI's loop: read an event, update the session, draw the new screen.
struct TerminalApp {
    var session: Session
    let terminal: any Terminal

    /// Opens the explorer in the terminal. Everything that can fail on bad input (the
    /// manifest, the store, the versions) is built before the terminal is touched, so such an
    /// error prints as usual and leaves the terminal as it was; the terminal is given back on
    /// every way out, and a caught signal ends the process with 128 + its number.
    /// - Throws: ``ExplorerError`` when there is no usable terminal.
    @MainActor
    static func launch(explorer: Explorer) async throws {
        let session = Session(explorer: explorer)
        let terminal = try NcursesTerminal.open()
        if let signal = await TerminalApp(session: session, terminal: terminal).run() {
            exit(128 + signal)
        }
    }

    /// Gives the terminal back and ends the process as `signal` asks, in the middle of a run.
    private static func leave(_ terminal: any Terminal, signal: Int32) -> Never {
        terminal.close()
        exit(128 + signal)
    }

    /// Runs until the user quits (`nil`) or a termination signal arrives (its number), on the
    /// main actor: while a run is awaited, the app's `@MainActor` bodies run there.
    @MainActor
    func run() async -> Int32? {
        defer { terminal.close() }
        var session = session
        session.unicode = terminal.unicode
        var size = terminal.size
        session.resize(to: size)
        let draw = { (state: ViewState, size: Size) in terminal.draw(Render.screen(state, size: size, unicode: terminal.unicode)) }
        draw(session.state, size)
        while !session.state.wantsQuit {
            if let signal = terminal.terminationSignal() { return signal }
            // A quarter second at most, so that a termination signal is seen soon.
            guard let event = terminal.nextEvent(waitingAtMost: 250) else { continue }
            switch event {
            case .resize(let newSize):
                size = newSize
                session.resize(to: size)
                terminal.clear()
            case .key(let key):
                // A termination signal during a run cancels it (each finished step is already
                // recorded); the process leaves once the run has stopped.
                let ending = await LiveRun.around(terminal: terminal, size: size, state: session.state) { live in
                    await session.handle(key, size: size) { live.show($0) }
                }
                if let signal = ending.signal { Self.leave(terminal, signal: signal) }
                if ending.size != size {
                    size = ending.size
                    session.resize(to: size)
                    terminal.clear()
                }
            }
            if session.state.wantsRedraw {
                terminal.clear()
                session.state.wantsRedraw = false
            }
            draw(session.state, size)
        }
        return nil
    }
}
