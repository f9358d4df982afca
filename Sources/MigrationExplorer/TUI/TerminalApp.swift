/// The terminal UI's loop: read an event, update the session, draw the new screen.
struct TerminalApp {
    let explorer: Explorer
    let terminal: any Terminal

    func run() throws {
        defer { terminal.close() }
        var session = Session(explorer: explorer)
        var size = terminal.size
        let draw = { (state: ViewState, size: Size) in terminal.draw(Render.screen(state, size: size, unicode: terminal.unicode)) }
        draw(session.state, size)
        while !session.state.wantsQuit {
            guard let event = terminal.nextEvent() else { continue }
            switch event {
            case .resize(let newSize):
                size = newSize
                terminal.clear()
            case .key(let key):
                LiveRun.around(terminal: terminal, size: size, state: session.state) { live in
                    session.handle(key, size: size) { live.show($0) }
                }
            }
            if session.state.wantsRedraw {
                terminal.clear()
                session.state.wantsRedraw = false
            }
            draw(session.state, size)
        }
    }
}
