/// A key press, as the UI understands it.
package enum Key: Hashable, Sendable {
    case character(Character)
    /// A letter with Ctrl held, lower-cased: `.control("c")` is Ctrl-C.
    case control(Character)
    case up, down, left, right, pageUp, pageDown, home, end
    case enter, tab, escape, backspace, delete

    /// How help and the footer name the key; arrows are words outside UTF-8.
    func name(unicode: Bool = true) -> String {
        switch self {
        case .up where !unicode: "Up"
        case .down where !unicode: "Down"
        case .left where !unicode: "Left"
        case .right where !unicode: "Right"
        case .character(" "): "Space"
        case .character(let character): String(character)
        case .control(let letter): "Ctrl-\(letter.uppercased())"
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
        case .delete: "Delete"
        }
    }

    /// Whether typing the key adds text: a character that is not a control or format character.
    var typedCharacter: Character? {
        guard case .character(let character) = self else { return nil }
        let printable = character.unicodeScalars.allSatisfy { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned: scalar == "\u{200D}"
            default: true
            }
        }
        return printable ? character : nil
    }
}
