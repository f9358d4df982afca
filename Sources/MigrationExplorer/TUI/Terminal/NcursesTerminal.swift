import CNcurses
import Foundation

/// ``Terminal`` on ncursesw. It checks first that there is a terminal to draw on, and gives
/// it back as it found it; SIGHUP, SIGINT and SIGTERM are caught for the loop to act on
/// (``TerminationSignals``), and a resize wakes the loop (``ResizeSignal``). It draws on a copy of standard output: what the app's code
/// prints meanwhile is held back (``PrintedOutput``) and written to standard error once the
/// terminal is given back.
final class NcursesTerminal: Terminal {
    private let screenHandle: OpaquePointer
    private let output: UnsafeMutablePointer<FILE>
    private let printed: PrintedOutput?
    let unicode: Bool
    private let palette: Palette
    private(set) var size: Size
    private let descriptors: DescriptorReadiness
    var readiness: any TerminalReadiness { descriptors }

    /// Opens the terminal on stdin and stdout.
    /// - Throws: ``ExplorerError/noTerminal(_:)`` (exit status 2) when stdin or stdout is not a
    ///   TTY, `TERM` is unset or the terminal cannot address the cursor; nothing is written to
    ///   stdout then.
    static func open(environment: [String: String] = ProcessInfo.processInfo.environment) throws(ExplorerError) -> NcursesTerminal {
        let advice = "use `\(Program.name) plan` or `\(Program.name) run` in scripts and pipes"
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            throw .noTerminal("the interactive explorer needs a terminal (stdin and stdout must be a TTY); \(advice)")
        }
        guard let term = environment["TERM"], !term.isEmpty, term != "dumb" else {
            throw .noTerminal("the interactive explorer needs a terminal, but TERM is \(environment["TERM"].map { "\"\($0)\"" } ?? "unset"); \(advice)")
        }
        setlocale(LC_ALL, "")
        if cn_locale_is_utf8() == 0 { setlocale(LC_ALL, "C.UTF-8") }
        let unicode = cn_locale_is_utf8() != 0
        let copy = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0, let output = fdopen(copy, "w") else {
            if copy >= 0 { closeDescriptor(copy) }
            throw .noTerminal("cannot open the terminal for drawing: \(String(cString: strerror(errno)))")
        }
        guard let handle = newterm(nil, output, cn_stdin()) else {
            fclose(output)
            throw .noTerminal("the terminal \"\(term)\" is unknown to ncurses; \(advice)")
        }
        guard cn_can_address_cursor() != 0 else {
            endwin()
            delscreen(handle)
            fclose(output)
            throw .noTerminal("the terminal \"\(term)\" cannot move the cursor; \(advice)")
        }
        return NcursesTerminal(handle: handle, output: output, unicode: unicode, color: environment["NO_COLOR"].map(\.isEmpty) ?? true)
    }

    private init(handle: OpaquePointer, output: UnsafeMutablePointer<FILE>, unicode: Bool, color: Bool) {
        screenHandle = handle
        self.output = output
        self.unicode = unicode
        raw()
        noecho()
        keypad(cn_stdscr(), true)
        set_escdelay(25)
        curs_set(0)
        palette = Palette(color: color && has_colors())
        size = Size(width: Int(cn_cols()), height: Int(cn_lines()))
        TerminationSignals.install()
        ResizeSignal.install()
        descriptors = DescriptorReadiness(watching: [STDIN_FILENO, TerminationSignals.pipe.readEnd, ResizeSignal.pipe.readEnd])
        // A migration body that calls `exit` or crashes during a run must not leave the
        // terminal raw, in the alternate screen, with the cursor hidden, nor lose what it printed.
        TerminalHandover.prepare()
        printed = PrintedOutput.capture(restoringTerminal: TerminalHandover.giveBack)
    }

    func draw(_ screen: Screen) {
        TerminalHandover.whileOwned { drawOwned(screen) }
    }

    private func drawOwned(_ screen: Screen) {
        for row in 0..<min(screen.size.height, size.height) {
            for column in 0..<min(screen.size.width, size.width) {
                let cell = screen.cell(row: row, column: column)
                if cell.isWideTail { continue }
                let (attributes, pair) = palette.style(cell.role)
                let width = cell.character.displayWidth
                var x = column
                for part in TerminalCells.split(cell.character, width: width, measure: { Int(wcwidth(wchar_t(bitPattern: $0.value))) }) {
                    let characters = part.map { wchar_t(bitPattern: $0.value) }
                    cn_put(Int32(row), Int32(x), characters, Int32(characters.count), attributes, pair)
                    x += max(1, Int(wcwidth(characters[0])))
                }
            }
        }
        refresh()
    }

    func nextEvent(waitingAtMost milliseconds: Int) -> TerminalEvent? {
        TerminalHandover.whileOwned { nextEventOwned(waitingAtMost: milliseconds) } ?? nil
    }

    private func nextEventOwned(waitingAtMost milliseconds: Int) -> TerminalEvent? {
        timeout(Int32(milliseconds))
        var character: wint_t = 0
        let kind = wget_wch(cn_stdscr(), &character)
        switch kind {
        case KEY_CODE_YES:
            if Int32(character) == KEY_RESIZE {
                size = Size(width: Int(cn_cols()), height: Int(cn_lines()))
                return .resize(size)
            }
            return Self.functionKey(Int32(character)).map(TerminalEvent.key)
        case OK:
            return Self.characterKey(character).map(TerminalEvent.key)
        default:
            return nil
        }
    }

    func terminationSignal() -> Int32? { TerminationSignals.received() }

    func clear() {
        TerminalHandover.whileOwned { _ = clearok(cn_stdscr(), true) }
    }

    func close() {
        descriptors.stop()
        endwin()
        printed?.release()
        delscreen(screenHandle)
        fclose(output)
    }

    private static func functionKey(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: .up
        case KEY_DOWN: .down
        case KEY_LEFT: .left
        case KEY_RIGHT: .right
        case KEY_PPAGE: .pageUp
        case KEY_NPAGE: .pageDown
        case KEY_HOME: .home
        case KEY_END: .end
        case KEY_ENTER: .enter
        case KEY_BACKSPACE: .backspace
        case KEY_DC: .delete
        default: nil
        }
    }

    /// A typed character; Ctrl and a letter is ``Key/control(_:)``, and other control
    /// characters are no key at all.
    private static func characterKey(_ code: wint_t) -> Key? {
        switch code {
        case 9: .tab
        case 10, 13: .enter
        case 27: .escape
        case 8, 127: .backspace
        case 1...26: .control(Character(Unicode.Scalar(UInt8(code) + 0x60)))
        case 0..<32, 128..<160: nil
        default: Unicode.Scalar(UInt32(code)).map { .character(Character($0)) }
        }
    }
}

/// Colours and attributes for each ``StyleRole``: colours on the terminal's default background
/// when it has them (and `NO_COLOR` is unset), attributes alone otherwise.
private struct Palette {
    private var styles: [StyleRole: (attr_t, Int16)] = [:]

    init(color: Bool) {
        let bold = cn_a_bold(), dim = cn_a_dim(), reverse = cn_a_reverse()
        var pairs: [StyleRole: Int16] = [:]
        if color {
            start_color()
            use_default_colors()
            let colors: [(StyleRole, Int16)] = [
                (.applied, Int16(COLOR_GREEN)), (.pending, Int16(COLOR_YELLOW)), (.failed, Int16(COLOR_RED)),
                (.hook, Int16(COLOR_CYAN)), (.warning, Int16(COLOR_YELLOW)), (.accent, Int16(COLOR_CYAN)),
            ]
            for (index, (role, foreground)) in colors.enumerated() {
                init_pair(Int16(index + 1), foreground, -1)
                pairs[role] = Int16(index + 1)
            }
        }
        for role in StyleRole.allCases {
            let attributes: attr_t = switch role {
            case .normal: cn_a_normal()
            case .title: bold | reverse
            case .dim, .skipped: dim
            case .failed: bold
            case .pending where !color: bold
            case .selection: reverse
            case .accent: bold
            default: cn_a_normal()
            }
            styles[role] = (attributes | (pairs[role].map { cn_color_pair($0) } ?? 0), pairs[role] ?? 0)
        }
    }

    func style(_ role: StyleRole) -> (attr_t, Int16) { styles[role] ?? (cn_a_normal(), 0) }
}

/// `close(2)`, which the terminal's own `close()` hides inside it.
private func closeDescriptor(_ descriptor: Int32) {
    #if canImport(Glibc)
    _ = Glibc.close(descriptor)
    #elseif canImport(Darwin)
    _ = Darwin.close(descriptor)
    #endif
}
