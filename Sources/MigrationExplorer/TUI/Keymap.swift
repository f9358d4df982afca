/// What the user can ask for on the main screen; from an informational overlay too (the
/// overlay closes first).
package enum Action: String, CaseIterable, Sendable {
    case moveUp, moveDown, pageUp, pageDown, first, last
    case details, switchPane, back, setFrom, setTo, backToRealStore, dryRun, runPending, reset, writeFrom, whatsNew, problems, matrix, filter, help, quit, redraw
}

extension Action {
    /// Whether the action works while a run goes on: looking, not changing what runs.
    var actsDuringARun: Bool {
        switch self {
        case .setFrom, .setTo, .backToRealStore, .dryRun, .runPending, .reset, .writeFrom, .matrix: false
        default: true
        }
    }
}

/// What keys do in an overlay (help, a report, the problems, What's New, the matrix).
package enum OverlayAction: Sendable {
    case scrollUp, scrollDown, pageUp, pageDown, top, bottom, nextPage, previousPage, close
    /// What's New: the next page; the matrix: play the selected row; elsewhere: close.
    case choose
}

/// How a line of text is edited in a prompt or the filter, as in a shell.
package enum LineEdit: Sendable {
    case left, right, home, end, deleteBackward, deleteForward, deleteToStart, deleteWordBackward, deleteToEnd
    case submit, cancel
    /// The filter: stop typing, keep it, and go back to the table.
    case leave
}

/// What keys do while a run goes on, before anything else: stopping it.
package enum RunStop: Sendable {
    /// Cancels the run; once cancelled, gives up waiting for it and quits.
    case interrupt
    /// Cancels the run, unless an overlay or the filter is open for the key to close.
    case cancel
}

/// The answers to "Are you sure?"; any key that is not "yes" is "no".
package enum Answer: Sendable {
    case yes, no
}

/// Keys bound to one action, with the words help and the footer show for them.
package struct KeyBinding<Command: Sendable>: Sendable {
    package let keys: [Key]
    package let action: Command
    /// What help says it does.
    package let help: String
    /// The footer's short word; `nil` keeps it out of the footer.
    package let hint: String?
    /// How help names the keys, when listing each would be too long.
    package let label: String?

    package init(_ keys: [Key], _ action: Command, help: String, hint: String? = nil, label: String? = nil) {
        self.keys = keys
        self.action = action
        self.help = help
        self.hint = hint
        self.label = label
    }

    package func keysLabel(unicode: Bool = true) -> String {
        if let label, unicode { return label }
        return keys.map { $0.name(unicode: unicode) }.joined(separator: ", ")
    }
}

extension Array {
    /// The action the first binding holding `key` is for.
    func action<Command>(for key: Key) -> Command? where Element == KeyBinding<Command> {
        first { $0.keys.contains(key) }?.action
    }
}

/// The keymap as data: the key handling, the footer, the help overlay and the documentation's key
/// tables (`TheTerminalUI.md`) all come from these lists.
package enum Keymap {
    package static let bindings: [KeyBinding<Action>] = [
        KeyBinding([.up, .character("k")], .moveUp, help: "move up", label: "↑, k"),
        KeyBinding([.down, .character("j")], .moveDown, help: "move down", label: "↓, j"),
        KeyBinding([.pageUp], .pageUp, help: "page up"),
        KeyBinding([.pageDown], .pageDown, help: "page down"),
        KeyBinding([.character("g"), .home], .first, help: "first"),
        KeyBinding([.character("G"), .end], .last, help: "last"),
        KeyBinding([.enter], .details, help: "details of the selected migration", hint: "details"),
        KeyBinding([.tab], .switchPane, help: "switch pane (table / details)"),
        KeyBinding([.escape], .back, help: "back: from the details to the table; clears the filter"),
        KeyBinding([.character("f")], .setFrom, help: "set the \"from\" device: version and build, as 0.8 (90); empty: fresh install", hint: "from"),
        KeyBinding([.character("t")], .setTo, help: "set the app version (\"to\") and build, as 1.2 (130)", hint: "to"),
        KeyBinding([.character("b")], .backToRealStore, help: "back to the real store as it records, after f or a matrix row", hint: "back"),
        KeyBinding([.character("d")], .dryRun, help: "dry-run: what a run would execute, in order", hint: "dry-run"),
        KeyBinding([.character("r")], .runPending, help: "run the pending migrations", hint: "run"),
        KeyBinding([.character("x")], .reset, help: "reset the recorded state", hint: "reset"),
        KeyBinding([.character("s")], .writeFrom, help: "write the \"from\" device to the real store, to replay for real"),
        KeyBinding([.character("w")], .whatsNew, help: "What's New walkthrough for this upgrade", hint: "what's new"),
        KeyBinding([.character("p")], .problems, help: "problems with the plan, each with a hint", hint: "problems"),
        KeyBinding([.character("m")], .matrix, help: "upgrade matrix: every release as \"from\"; Enter picks one"),
        KeyBinding([.character("/")], .filter, help: "filter by text or status; Esc clears", hint: "filter"),
        KeyBinding([.character("?")], .help, help: "this help", hint: "help"),
        KeyBinding([.character("q"), .control("c")], .quit, help: "quit (Esc closes an overlay or prompt first)", hint: "quit"),
        KeyBinding([.control("l")], .redraw, help: "redraw the screen"),
    ]

    /// The main-screen actions the footer always shows, however narrow the terminal.
    package static let essential: Set<Action> = [.help, .quit]
    /// The main-screen actions the footer gives up only after every other one: what the explorer is for.
    package static let important: Set<Action> = [.dryRun, .runPending, .reset]

    package static let overlay: [KeyBinding<OverlayAction>] = [
        KeyBinding([.up, .character("k")], .scrollUp, help: "scroll up", hint: "scroll", label: "↑, k"),
        KeyBinding([.down, .character("j")], .scrollDown, help: "scroll down", label: "↓, j"),
        KeyBinding([.pageUp], .pageUp, help: "page up"),
        KeyBinding([.pageDown], .pageDown, help: "page down"),
        KeyBinding([.character("g"), .home], .top, help: "top"),
        KeyBinding([.character("G"), .end], .bottom, help: "bottom"),
        KeyBinding([.right, .character("l"), .character(" ")], .nextPage, help: "What's New: next page; the matrix: more columns", label: "→, l, Space"),
        KeyBinding([.left, .character("h")], .previousPage, help: "What's New: previous page; the matrix: columns back", label: "←, h"),
        KeyBinding([.escape], .close, help: "close", hint: "close"),
        KeyBinding([.enter], .choose, help: "What's New: next page; the matrix: play the selected row; elsewhere: close"),
    ]

    package static let lineEditing: [KeyBinding<LineEdit>] = [
        KeyBinding([.enter], .submit, help: "apply", hint: "apply"),
        KeyBinding([.escape], .cancel, help: "cancel (the filter: clear)", hint: "cancel"),
        KeyBinding([.left, .control("b")], .left, help: "move the cursor left"),
        KeyBinding([.right, .control("f")], .right, help: "move the cursor right"),
        KeyBinding([.home, .control("a")], .home, help: "start of the line"),
        KeyBinding([.end, .control("e")], .end, help: "end of the line"),
        KeyBinding([.backspace], .deleteBackward, help: "delete before the cursor"),
        KeyBinding([.delete, .control("d")], .deleteForward, help: "delete at the cursor"),
        KeyBinding([.control("u")], .deleteToStart, help: "delete to the start of the line", hint: "delete to start"),
        KeyBinding([.control("w")], .deleteWordBackward, help: "delete the word before the cursor"),
        KeyBinding([.control("k")], .deleteToEnd, help: "delete to the end of the line"),
        KeyBinding([.tab, .up, .down], .leave, help: "the filter: keep it and go back to the table", label: "Tab, ↑, ↓"),
    ]

    /// Keys that act wherever the focus is (a prompt, the filter, an overlay), before the
    /// lists above; they are listed there too, where help shows them.
    package static let anywhere: [KeyBinding<Action>] = [
        KeyBinding([.control("c")], .quit, help: "quit"),
    ]

    /// Keys that stop a run in progress, before any other list (the footer names them during a run).
    package static let runStop: [KeyBinding<RunStop>] = [
        KeyBinding([.control("c")], .interrupt, help: "cancel the run; again: give up waiting for it and quit"),
        KeyBinding([.escape], .cancel, help: "cancel the run (an open overlay or the filter closes first)"),
    ]

    package static let confirm: [KeyBinding<Answer>] = [
        KeyBinding([.character("y"), .character("Y")], .yes, help: "yes", hint: "yes"),
        KeyBinding([.character("n"), .enter, .escape], .no, help: "no (so is any other key)", hint: "no"),
    ]

    package static func action(for key: Key) -> Action? { bindings.action(for: key) }

    package static func binding(for action: Action) -> KeyBinding<Action>? { bindings.first { $0.action == action } }

    /// The terminal UI article's key tables, in Markdown.
    package static var markdownTable: String {
        func table<Command>(_ title: String, _ list: [KeyBinding<Command>]) -> [String] {
            ["| \(title) | action |", "| --- | --- |"] + list.map { "| \($0.keysLabel()) | \($0.help) |" }
        }
        return (table("key", bindings) + [""] + table("in an overlay", overlay) + [""]
            + table("in a prompt or the filter", lineEditing)).joined(separator: "\n")
    }
}
