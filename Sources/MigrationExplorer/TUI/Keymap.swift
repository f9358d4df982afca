/// What the user can ask for on the main screen.
package enum Action: String, CaseIterable, Sendable {
    case moveUp, moveDown, pageUp, pageDown, first, last
    case details, switchPane, setFrom, setTo, dryRun, runPending, reset, whatsNew, filter, help, quit, redraw
}

/// The keymap as data: the key handling, the footer, the help overlay and the README's key
/// table all come from this one list.
package struct KeyBinding: Sendable {
    package let keys: [Key]
    package let action: Action
    /// What help says it does.
    package let help: String
    /// The footer's short word; `nil` keeps it out of the footer.
    package let hint: String?
    /// How help names the keys, when listing each would be too long.
    package let label: String?

    package var keysLabel: String { label ?? keys.map { $0.name() }.joined(separator: ", ") }
}

package enum Keymap {
    package static let bindings: [KeyBinding] = [
        KeyBinding(keys: [.up, .character("k")], action: .moveUp, help: "move up", hint: nil, label: "↑, k"),
        KeyBinding(keys: [.down, .character("j")], action: .moveDown, help: "move down", hint: nil, label: "↓, j"),
        KeyBinding(keys: [.pageUp], action: .pageUp, help: "page up", hint: nil, label: nil),
        KeyBinding(keys: [.pageDown], action: .pageDown, help: "page down", hint: nil, label: nil),
        KeyBinding(keys: [.character("g"), .home], action: .first, help: "first", hint: nil, label: nil),
        KeyBinding(keys: [.character("G"), .end], action: .last, help: "last", hint: nil, label: nil),
        KeyBinding(keys: [.enter], action: .details, help: "details of the selected migration", hint: "details", label: nil),
        KeyBinding(keys: [.tab], action: .switchPane, help: "switch pane (table / details)", hint: nil, label: nil),
        KeyBinding(keys: [.character("f")], action: .setFrom, help: "set the \"from\" version (the device's last migration)", hint: "from", label: nil),
        KeyBinding(keys: [.character("t")], action: .setTo, help: "set the app version (\"to\")", hint: "to", label: nil),
        KeyBinding(keys: [.character("d")], action: .dryRun, help: "dry-run: what a run would execute, in order", hint: "dry-run", label: nil),
        KeyBinding(keys: [.character("r")], action: .runPending, help: "run the pending migrations", hint: "run", label: nil),
        KeyBinding(keys: [.character("x")], action: .reset, help: "reset the recorded state", hint: "reset", label: nil),
        KeyBinding(keys: [.character("w")], action: .whatsNew, help: "What's New walkthrough for this upgrade", hint: "what's new", label: nil),
        KeyBinding(keys: [.character("/")], action: .filter, help: "filter by text or status; Esc clears", hint: "filter", label: nil),
        KeyBinding(keys: [.character("?")], action: .help, help: "this help", hint: "help", label: nil),
        KeyBinding(keys: [.character("q"), .controlC], action: .quit, help: "quit (Esc closes an overlay or prompt first)", hint: "quit", label: nil),
        KeyBinding(keys: [.controlL], action: .redraw, help: "redraw the screen", hint: nil, label: nil),
    ]

    private static let byKey: [Key: Action] = Dictionary(
        bindings.flatMap { binding in binding.keys.map { ($0, binding.action) } }, uniquingKeysWith: { first, _ in first })

    package static func action(for key: Key) -> Action? { byKey[key] }

    package static func binding(for action: Action) -> KeyBinding? { bindings.first { $0.action == action } }

    /// The README's key table, in Markdown.
    package static var markdownTable: String {
        (["| key | action |", "| --- | --- |"] + bindings.map { "| \($0.keysLabel) | \($0.help) |" }).joined(separator: "\n")
    }
}
