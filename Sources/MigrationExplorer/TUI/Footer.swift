/// The bottom row: the keys that work in the current mode, from the keymap. When the row is
/// too narrow the least needed hints go first, replaced by an ellipsis; help and quit stay,
/// and so does the problems key when there are problems.
enum Footer {
    struct Hint {
        let text: String
        /// Kept however narrow the terminal is.
        let essential: Bool
    }

    static func hints(_ state: ViewState, glyphs: Glyphs) -> [Hint] {
        let unicode = glyphs.unicode
        func hints<Command>(_ list: [KeyBinding<Command>], essential: (Command) -> Bool) -> [Hint] {
            list.compactMap { binding in
                binding.hint.map { Hint(text: "\(binding.keys[0].name(unicode: unicode)) \($0)", essential: essential(binding.action)) }
            }
        }
        // Help and quit always show, and so does the problems key when there are problems.
        let essential = { (action: Action) in Keymap.essential.contains(action) || (action == .problems && !state.problems.isEmpty) }
        let main = hints(Keymap.bindings, essential: essential)
        // In an overlay Enter closes it, so it does not open the details.
        let passedThrough = hints(Keymap.bindings.filter { $0.action != .details }, essential: essential)
        if state.prompt != nil || state.filterLine != nil { return hints(Keymap.lineEditing) { $0 == .submit || $0 == .cancel } }
        switch state.overlay {
        case nil: return main
        case .confirm: return hints(Keymap.confirm) { _ in true }
        case .whatsNew:
            let pages = [Hint(text: "\(Key.right.name(unicode: unicode)) next", essential: true),
                         Hint(text: "\(Key.left.name(unicode: unicode)) back", essential: false)]
            return pages + hints(Keymap.overlay) { $0 == .close } + passedThrough
        case .help, .report, .problems:
            return hints(Keymap.overlay) { $0 == .close } + passedThrough
        case .matrix:
            let choose = [Hint(text: "Enter upgrade from it", essential: true),
                          Hint(text: "\(Key.up.name(unicode: unicode))\(Key.down.name(unicode: unicode)) choose", essential: false)]
            return choose + hints(Keymap.overlay.filter { $0.action == .close }) { _ in true } + passedThrough
        }
    }

    static func draw(_ state: ViewState, on screen: inout Screen, row: Int, glyphs: Glyphs) {
        let text = fit(hints(state, glyphs: glyphs), width: screen.size.width - 1, ellipsis: glyphs.ellipsis)
        screen.write(" " + text, row: row, column: 0, role: .dim, ellipsis: glyphs.ellipsis)
    }

    /// The hints joined, dropping the last optional ones until the line fits in `width`; each
    /// run of dropped hints shows as one ellipsis.
    static func fit(_ hints: [Hint], width: Int, ellipsis: String) -> String {
        var kept = hints.map { _ in true }
        func line() -> String {
            var parts: [String] = []
            for (hint, isKept) in zip(hints, kept) {
                if isKept { parts.append(hint.text) } else if parts.last != ellipsis { parts.append(ellipsis) }
            }
            return parts.joined(separator: "  ")
        }
        while line().displayWidth > width, let last = hints.indices.last(where: { kept[$0] && !hints[$0].essential }) {
            kept[last] = false
        }
        return line()
    }
}
