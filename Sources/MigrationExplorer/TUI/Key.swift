/// A key press, as the UI understands it.
package enum Key: Hashable, Sendable {
    case character(Character)
    case up, down, left, right, pageUp, pageDown, home, end
    case enter, tab, escape, backspace
    case controlC, controlL

    /// How help and the footer name the key; arrows are words outside UTF-8.
    func name(unicode: Bool = true) -> String {
        switch self {
        case .up where !unicode: "Up"
        case .down where !unicode: "Down"
        case .left where !unicode: "Left"
        case .right where !unicode: "Right"
        case .character(" "): "Space"
        case .character(let character): String(character)
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .home: "Home"
        case .end: "End"
        case .enter: "Enter"
        case .tab: "Tab"
        case .escape: "Esc"
        case .backspace: "Backspace"
        case .controlC: "Ctrl-C"
        case .controlL: "Ctrl-L"
        }
    }
}
