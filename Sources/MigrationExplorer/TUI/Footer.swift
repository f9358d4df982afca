/// The bottom row: the keys that work in the current mode, from the keymap. When the row is
/// too narrow the least needed hints go first, replaced by an ellipsis, then the essential ones
/// (closing an overlay, the problems key when there are problems); help and quit always stay.
enum Footer {
    struct Hint {
        /// Which hints give way first when the row is too narrow.
        enum Priority: Comparable {
            case optional
            /// Dropped only after every optional hint.
            case essential
            /// Kept however narrow the terminal is: help and quit.
            case always
        }

        let text: String
        let priority: Priority
        /// What it says instead once essential hints gave way: help says it lists the keys.
        var crowded: String?
    }

    static func hints(_ state: ViewState, glyphs: Glyphs) -> [Hint] {
        guard let phase = state.runPhase else { return modeHints(state, glyphs: glyphs) }
        // During a run, how to stop it comes first; Esc closes an overlay or the filter first.
        let cancelled = state.activity?.cancelled == true
        let closesFirst = state.overlay != nil || state.filterLine != nil
        let stop = closesFirst && !cancelled ? "Ctrl-C cancels the run" : phase.footer(cancelled: cancelled)
        return [Hint(text: stop, priority: .always)] + modeHints(state, glyphs: glyphs)
    }

    /// The hints of the current mode: the main screen's, an overlay's, a prompt's.
    private static func modeHints(_ state: ViewState, glyphs: Glyphs) -> [Hint] {
        let unicode = glyphs.unicode
        func hints<Command>(_ list: [KeyBinding<Command>], crowded: (Command) -> String? = { _ in nil }, priority: (Command) -> Hint.Priority) -> [Hint] {
            list.compactMap { binding in
                binding.hint.map { hint in
                    let key = binding.keys[0].name(unicode: unicode)
                    return Hint(text: "\(key) \(hint)", priority: priority(binding.action), crowded: crowded(binding.action).map { "\(key) \($0)" })
                }
            }
        }
        // Once keys that matter gave way, help says it lists them.
        let keys = { (action: Action) -> String? in action == .help ? "keys" : nil }
        func essential(_ yes: Bool) -> Hint.Priority { yes ? .essential : .optional }
        // Help and quit always show; run, dry-run and reset, and the problems key when there are
        // problems, give way only to them.
        // The way back to the real store, offered only after a detour from it, is essential too.
        let passedOn = { (action: Action) -> Hint.Priority in
            Keymap.essential.contains(action) ? .always : essential(action == .problems && !state.problems.isEmpty || action == .backToRealStore)
        }
        let main = { (action: Action) -> Hint.Priority in Keymap.important.contains(action) ? .essential : passedOn(action) }
        // In an overlay Enter closes it, so it does not open the details.
        let offered = Keymap.bindings.filter { state.offers($0.action) && (!state.isRunning || $0.action.actsDuringARun) }
        let passedThrough = hints(offered.filter { $0.action != .details }, crowded: keys, priority: passedOn)
        if state.prompt != nil || state.filterLine != nil { return hints(Keymap.lineEditing) { essential($0 == .submit || $0 == .cancel) } }
        switch state.overlay {
        case nil: return hints(offered, crowded: keys, priority: main)
        case .confirm: return hints(Keymap.confirm) { _ in .essential }
        case .whatsNew:
            let pages = [Hint(text: "\(Key.right.name(unicode: unicode)) next", priority: .essential),
                         Hint(text: "\(Key.left.name(unicode: unicode)) back", priority: .optional)]
            return pages + hints(Keymap.overlay) { essential($0 == .close) } + passedThrough
        case .help, .report, .problems:
            return hints(Keymap.overlay) { essential($0 == .close) } + passedThrough
        case .matrix:
            let choose = [Hint(text: "Enter upgrade from it", priority: .essential),
                          Hint(text: "\(Key.up.name(unicode: unicode))\(Key.down.name(unicode: unicode)) choose", priority: .optional)]
            return choose + hints(Keymap.overlay.filter { $0.action == .close }) { _ in .essential } + passedThrough
        }
    }

    static func draw(_ state: ViewState, on screen: inout Screen, row: Int, glyphs: Glyphs) {
        let text = fit(hints(state, glyphs: glyphs), width: screen.size.width - 1, ellipsis: glyphs.ellipsis)
        screen.write(" " + text, row: row, column: 0, role: .dim, ellipsis: glyphs.ellipsis)
    }

    /// The hints joined, dropping the last optional ones until the line fits in `width`, then
    /// (when help and quit are among them) the last essential ones, help then saying it lists
    /// the keys ("? keys"); each run of dropped hints shows as one ellipsis.
    static func fit(_ hints: [Hint], width: Int, ellipsis: String) -> String {
        var kept = hints.map { _ in true }
        func line() -> String {
            let crowded = zip(hints, kept).contains { !$1 && $0.priority == .essential }
            var parts: [String] = []
            for (hint, isKept) in zip(hints, kept) {
                if isKept { parts.append(crowded ? hint.crowded ?? hint.text : hint.text) } else if parts.last != ellipsis { parts.append(ellipsis) }
            }
            return parts.joined(separator: "  ")
        }
        // Essential hints give way only to help and quit; without them, the line is cut.
        let droppable: Hint.Priority = hints.contains { $0.priority == .always } ? .essential : .optional
        while line().displayWidth > width, let last = hints.indices.last(where: { kept[$0] && hints[$0].priority == .optional })
            ?? hints.indices.last(where: { kept[$0] && hints[$0].priority <= droppable }) {
            kept[last] = false
        }
        return line()
    }
}
