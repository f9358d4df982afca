import MigrationCore

/// What the update step asks the session to do with `MigrationCore`.
package enum Effect: Equatable, Sendable {
    case dryRun, run, reset
    case setFrom(String)
    case setTo(String)
}

/// Turns a key into a new ``ViewState`` and, where the key asks for it, an ``Effect``. Pure:
/// no terminal, no store, no clock.
package enum Update {
    package static func handle(_ key: Key, _ state: inout ViewState, layout: Layout) -> Effect? {
        if key == .controlC {
            state.wantsQuit = true
            return nil
        }
        if state.prompt != nil { return handlePrompt(key, &state) }
        if state.isEditingFilter {
            handleFilter(key, &state)
            return nil
        }
        if let overlay = state.overlay { return handleOverlay(overlay, key, &state, layout: layout) }
        if key == .escape {
            if state.focus == .details { state.focus = .table } else if !state.filter.isEmpty { state.setFilter("") }
            return nil
        }
        guard let action = Keymap.action(for: key) else { return nil }
        return perform(action, &state, layout: layout)
    }

    private static func perform(_ action: Action, _ state: inout ViewState, layout: Layout) -> Effect? {
        switch action {
        case .moveUp: move(by: -1, &state, layout: layout)
        case .moveDown: move(by: 1, &state, layout: layout)
        case .pageUp: move(by: -layout.visibleRows, &state, layout: layout)
        case .pageDown: move(by: layout.visibleRows, &state, layout: layout)
        case .first: move(by: -state.items.count, &state, layout: layout)
        case .last: move(by: state.items.count, &state, layout: layout)
        case .details, .switchPane:
            state.focus = state.focus == .table ? .details : .table
            state.detailsOffset = 0
        case .setFrom:
            state.prompt = .init(kind: .from, text: state.plan?.state.lastMigratedVersion ?? "")
        case .setTo:
            state.prompt = .init(kind: .to, text: state.plan?.target.version.text ?? "")
        case .dryRun:
            return .dryRun
        case .runPending:
            if state.isSandbox && !state.runsCommands { return .run }
            state.overlay = .confirm(.run)
        case .reset:
            state.overlay = .confirm(.reset)
        case .whatsNew:
            let pages = whatsNewPages(state)
            if pages.isEmpty {
                state.message = .init(text: "Nothing new: no migration of this upgrade has What's New notes", role: .dim)
            } else {
                state.overlay = .whatsNew(pages: pages, page: 0)
            }
        case .filter:
            state.isEditingFilter = true
        case .help:
            state.overlay = .help
        case .quit:
            state.wantsQuit = true
        case .redraw:
            state.wantsRedraw = true
        }
        return nil
    }

    private static func move(by delta: Int, _ state: inout ViewState, layout: Layout) {
        if state.focus == .details {
            state.detailsOffset = max(0, state.detailsOffset + delta)
            return
        }
        state.selection += delta
        state.clampSelection()
        state.detailsOffset = 0
        if state.selection < state.tableTop { state.tableTop = state.selection }
        if state.selection >= state.tableTop + layout.visibleRows { state.tableTop = state.selection - layout.visibleRows + 1 }
    }

    /// The migrations whose What's New notes this upgrade shows: those it will run, or, once
    /// run, those the last run ran.
    static func whatsNewPages(_ state: ViewState) -> [RegisteredMigration] {
        let pending = state.plan?.pending.map(\.migration) ?? []
        let ran = state.lastReport?.steps.compactMap { step -> RegisteredMigration? in
            if case .migration(let migration) = step.subject, step.result == .succeeded { migration } else { nil }
        } ?? []
        return (pending.isEmpty ? ran : pending).filter { !$0.whatsNew.isEmpty }
    }

    private static func handlePrompt(_ key: Key, _ state: inout ViewState) -> Effect? {
        guard var prompt = state.prompt else { return nil }
        switch key {
        case .escape:
            state.prompt = nil
            return nil
        case .backspace:
            if !prompt.text.isEmpty { prompt.text.removeLast() }
            prompt.error = nil
        case .character(let character):
            prompt.text.append(character)
            prompt.error = nil
        case .enter:
            let text = prompt.text.trimmingWhitespaceForPrompt()
            if !(text.isEmpty && prompt.kind == .from) {
                do { _ = try Version(text) } catch {
                    prompt.error = error.description
                    state.prompt = prompt
                    return nil
                }
            }
            state.prompt = nil
            return prompt.kind == .from ? .setFrom(text) : .setTo(text)
        default:
            break
        }
        state.prompt = prompt
        return nil
    }

    private static func handleFilter(_ key: Key, _ state: inout ViewState) {
        switch key {
        case .escape:
            state.isEditingFilter = false
            state.setFilter("")
        case .enter, .tab, .up, .down:
            state.isEditingFilter = false
        case .backspace:
            state.setFilter(String(state.filter.dropLast()))
        case .character(let character):
            state.setFilter(state.filter + String(character))
        default:
            break
        }
    }

    private static func handleOverlay(_ overlay: ViewState.Overlay, _ key: Key, _ state: inout ViewState, layout: Layout) -> Effect? {
        if key == .escape || (key == .character("q") && !isConfirm(overlay)) {
            if key == .character("q") { state.wantsQuit = true }
            state.overlay = nil
            return nil
        }
        switch overlay {
        case .help:
            if key == .enter || key == .character("?") { state.overlay = nil }
        case .report(let report, let offset):
            let delta: Int? = switch key {
            case .up, .character("k"): -1
            case .down, .character("j"): 1
            case .pageUp: -layout.visibleRows
            case .pageDown: layout.visibleRows
            default: nil
            }
            if key == .enter {
                state.overlay = nil
            } else if let delta {
                let limit = Overlays.maxReportOffset(report, size: layout.size)
                state.overlay = .report(report, offset: max(0, min(limit, offset + delta)))
            }
        case .whatsNew(let pages, let page):
            switch key {
            case .right, .enter, .character(" "), .character("l"), .character("n"):
                state.overlay = page + 1 < pages.count ? .whatsNew(pages: pages, page: page + 1) : nil
            case .left, .character("h"), .character("p"):
                state.overlay = .whatsNew(pages: pages, page: max(0, page - 1))
            default: break
            }
        case .confirm(let confirmation):
            state.overlay = nil
            guard key == .character("y") || key == .character("Y") else {
                state.message = .init(text: "Cancelled", role: .dim)
                return nil
            }
            return confirmation == .reset ? .reset : .run
        }
        return nil
    }

    private static func isConfirm(_ overlay: ViewState.Overlay) -> Bool {
        if case .confirm = overlay { return true }
        return false
    }
}

extension String {
    func trimmingWhitespaceForPrompt() -> String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
