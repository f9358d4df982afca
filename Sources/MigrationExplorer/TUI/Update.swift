import MigrationCore

/// Turns an event (a key, a resize, a tick, a run's update, the store's answer) into a new
/// ``ViewState`` and, where it asks for it, an ``Effect``. Pure: no terminal, no store, no
/// clock. Which key does what comes from ``Keymap`` alone. Positions may end out of range; the
/// session's normalising step brings them back.
///
/// ```swift
/// var effect = Update.handle(.key(.character("r")), &state, layout: layout)   // .run
/// Update.handle(.run(.began(.now)), &state, layout: layout)
/// effect = Update.handle(.key(.escape), &state, layout: layout)                // .cancelRun
/// ```
package enum Update {
    package static func handle(_ event: Event, _ state: inout ViewState, layout: Layout) -> Effect? {
        switch event {
        case .key(let key): return handle(key, &state, layout: layout)
        case .resize: return nil
        case .tick(let now):
            state.activity?.now = now
            state.runningStep?.tick(now: now)
            return nil
        case .run(let update):
            apply(update, &state)
            if case .ended = update { return followUnread(&state) }
            return nil
        case .store(let answer):
            apply(answer, &state, width: layout.size.width)
            return followUnread(&state)
        case .storeChanged(let change):
            return apply(change, &state)
        case .manifest(let outcome):
            return apply(outcome, &state)
        }
    }

    /// A key: what it asks for, unless that needs the store while the store still works on
    /// the effect before (then the message line says it waits).
    package static func handle(_ key: Key, _ state: inout ViewState, layout: Layout) -> Effect? {
        let effect = act(on: key, &state, layout: layout)
        guard let effect, effect.needsTheStore else { return effect }
        if let awaited = state.awaitedStore {
            state.message = .init(text: "\(awaited.waitingSubject) waits for the store: this key acts once it has answered", role: .warning)
            return nil
        }
        if effect.isStoreWork { state.awaitedStore = effect }
        return effect
    }

    private static func act(on key: Key, _ state: inout ViewState, layout: Layout) -> Effect? {
        if state.isRunning, let effect = stopKey(key, &state, layout: layout) { return effect }
        if layout.isTooSmall {
            // Only the notice shows: nothing may act unseen but quitting and redrawing.
            switch Keymap.action(for: key) {
            case .quit: return perform(.quit, &state, layout: layout)
            case .redraw: return .redraw
            default: return nil
            }
        }
        if let action = Keymap.anywhere.action(for: key) as Action? { return perform(action, &state, layout: layout) }
        if state.prompt != nil { return handlePrompt(key, &state) }
        if state.filterLine != nil {
            handleFilter(key, &state)
            return nil
        }
        if let overlay = state.overlay { return handleOverlay(overlay, key, &state, layout: layout) }
        guard let action = Keymap.action(for: key) else { return nil }
        return perform(action, &state, layout: layout)
    }

    /// The keys of ``Keymap/runStop`` during a run. `nil`: the key acts as it always does.
    private static func stopKey(_ key: Key, _ state: inout ViewState, layout: Layout) -> Effect? {
        let cancelled = state.activity?.cancelled == true
        switch Keymap.runStop.action(for: key) as RunStop? {
        case .interrupt? where cancelled:
            return .abandonRun
        case .interrupt?:
            state.activity?.cancelled = true
            return .cancelRun
        case .cancel? where layout.isTooSmall || (state.overlay == nil && state.filterLine == nil):
            guard !cancelled else { return nil }
            state.activity?.cancelled = true
            return .cancelRun
        case .cancel?, nil:
            return nil
        }
    }

    private static func perform(_ action: Action, _ state: inout ViewState, layout: Layout) -> Effect? {
        if state.isRunning, !action.actsDuringARun {
            state.message = .init(text: "Not while the run goes on: wait for it to end, or Esc cancels it", role: .warning)
            return nil
        }
        if action == .runPending || action == .reset, let unwritable = state.unwritableStore {
            state.message = .init(text: "\(action == .reset ? "No reset" : "No run"): \(unwritable)", role: .failed)
            return nil
        }
        if action == .runPending, let problem = state.manifestProblem {
            state.message = .init(text: "No run: the manifest changed since the plan shown and cannot be used (\(problem))", role: .failed)
            return nil
        }
        switch action {
        case .moveUp: move(by: -1, &state)
        case .moveDown: move(by: 1, &state)
        case .pageUp: move(by: -layout.visibleRows, &state)
        case .pageDown: move(by: layout.visibleRows, &state)
        case .first: move(by: -Int(Int32.max), &state)
        case .last: move(by: Int(Int32.max), &state)
        case .details, .switchPane:
            state.focus = state.focus == .table ? .details : .table
            state.detailsOffset = 0
        case .back:
            if state.focus == .details { state.focus = .table } else if !state.filter.isEmpty { state.setFilter("") }
        case .setFrom:
            let recorded = state.plan?.state
            state.prompt = .init(kind: .from, text: DeviceInput.text(version: recorded?.fromVersion, build: recorded?.fromBuild))
        case .setTo:
            state.prompt = .init(kind: .to, text: DeviceInput.text(version: state.target.version.text, build: state.target.build?.text))
        case .backToRealStore:
            guard let path = state.realStorePath else {
                state.message = .init(text: ExplorerError.noRealStore.description.capitalisingFirst, role: .dim)
                return nil
            }
            guard state.isSandbox else {
                state.message = .init(text: "Already playing the real store \(path) as it records", role: .dim)
                return nil
            }
            return .backToRealStore
        case .dryRun:
            return .dryRun
        case .runPending:
            // A run against the real store always asks: it is destructive.
            if state.isSandbox, !MigrationRule.sandboxRunNeedsConsent(state.plan, bodiesActForReal: state.sandboxRunsForReal != nil) {
                return .run
            }
            state.overlay = .confirm(.run)
        case .reset:
            state.overlay = .confirm(.reset)
        case .writeFrom:
            if let unwritable = state.unwritableRealStore, state.writableDevice != nil {
                state.message = .init(text: "Not written: \(unwritable)", role: .failed)
            } else if state.writableDevice != nil {
                state.overlay = .confirm(.writeFrom)
            } else {
                state.message = .init(text: state.realStorePath == nil
                    ? "No real store to write to: open one with --store, --defaults-plist, --simulator, --sqlite or --postgres"
                    : "No simulated device to write: press f to choose one (a version, not a fresh install)", role: .dim)
            }
        case .whatsNew:
            let pages = whatsNewPages(state)
            if pages.isEmpty {
                state.message = .init(text: state.isRunning ? "Nothing new yet: What's New shows the migrations this run has finished"
                    : "Nothing new: no migration of this upgrade has What's New notes", role: .dim)
            } else {
                state.overlay = .whatsNew(pages: pages, page: 0)
            }
        case .problems:
            state.overlay = .problems
        case .matrix:
            return .matrix
        case .filter:
            state.filterLine = LineEditor(selected: state.filter)
        case .help:
            state.overlay = .help
        case .quit:
            // Quitting during a run cancels it; the loop leaves once it has stopped.
            if state.isRunning { state.activity?.cancelled = true }
            return .quit
        case .redraw:
            return .redraw
        }
        return nil
    }

    /// Moves the selection (or, with the details focused, scrolls them) by `delta`.
    private static func move(by delta: Int, _ state: inout ViewState) {
        if state.focus == .details {
            state.detailsOffset = max(0, state.detailsOffset + delta)
            return
        }
        state.selection = max(0, min(state.items.count - 1, state.selection + delta))
        state.detailsOffset = 0
    }

    /// The migrations whose What's New notes this upgrade shows: those it will run, or, once
    /// run, those the last run ran; during a run, those it has run so far.
    static func whatsNewPages(_ state: ViewState) -> [RegisteredMigration] {
        if let done = state.running { return state.plan?.whatsNew.filter { done.outcome(ofMigration: $0.id) == .succeeded } ?? [] }
        if let plan = state.plan, !plan.pending.isEmpty { return plan.whatsNew }
        let ran = state.lastReport?.steps.compactMap { step -> RegisteredMigration? in
            if case .migration(let migration) = step.subject, step.outcome == .succeeded { migration } else { nil }
        } ?? []
        return ran.filter { !$0.whatsNew.isEmpty }
    }

    private static func handlePrompt(_ key: Key, _ state: inout ViewState) -> Effect? {
        guard var prompt = state.prompt else { return nil }
        if let edit: LineEdit = Keymap.lineEditing.action(for: key) {
            switch edit {
            case .cancel:
                state.prompt = nil
                return nil
            case .leave:
                return nil
            case .submit:
                do {
                    let effect = try submit(prompt)
                    state.prompt = nil
                    return effect
                } catch {
                    prompt.error = error.description
                    state.prompt = prompt
                    return nil
                }
            default:
                prompt.line.apply(edit)
            }
        } else if let character = key.typedCharacter {
            prompt.line.insert(character)
        } else {
            return nil
        }
        prompt.error = nil
        state.prompt = prompt
        return nil
    }

    private static func submit(_ prompt: ViewState.Prompt) throws(PromptError) -> Effect {
        switch prompt.kind {
        case .from:
            let device = try DeviceInput(prompt.text)
            return .setFrom(version: device.version, build: device.build)
        case .to:
            let target = try DeviceInput(prompt.text)
            guard let version = target.version else { throw PromptError("give the app version to upgrade to, as 1.2 or 1.2 (130)") }
            return .setTo(version: version, build: target.build)
        }
    }

    private static func handleFilter(_ key: Key, _ state: inout ViewState) {
        guard var line = state.filterLine else { return }
        if let edit: LineEdit = Keymap.lineEditing.action(for: key) {
            switch edit {
            case .cancel:
                state.filterLine = nil
                state.setFilter("")
                return
            case .submit, .leave:
                state.filterLine = nil
                return
            default:
                line.apply(edit)
            }
        } else if let character = key.typedCharacter {
            line.insert(character)
        } else {
            return
        }
        state.filterLine = line
        if line.text != state.filter { state.setFilter(line.text) }
    }

    private static func handleOverlay(_ overlay: ViewState.Overlay, _ key: Key, _ state: inout ViewState, layout: Layout) -> Effect? {
        switch overlay {
        case .confirm(let confirmation):
            state.overlay = nil
            guard Keymap.confirm.action(for: key) == Answer.yes else {
                state.message = .init(text: "Cancelled", role: .dim)
                return nil
            }
            return switch confirmation {
            case .reset: .reset
            case .run: .run
            case .writeFrom: .writeFrom
            }
        case .whatsNew(let pages, let page):
            let action: OverlayAction? = Keymap.overlay.action(for: key)
            let turn = action == .choose ? .nextPage : action
            if turn == .nextPage {
                state.overlay = page + 1 < pages.count ? .whatsNew(pages: pages, page: page + 1) : nil
                return nil
            }
            if turn == .previousPage {
                state.overlay = .whatsNew(pages: pages, page: max(0, page - 1))
                return nil
            }
        case .matrix(let matrix, let selection):
            if Keymap.overlay.action(for: key) == OverlayAction.choose {
                state.overlay = nil
                return .setFromRelease(matrix.rows[selection].from)
            }
            if let move: OverlayAction = Keymap.overlay.action(for: key), move == .nextPage || move == .previousPage {
                // Sideways: the session's normalising step stops it at the last column.
                state.overlayColumn = max(0, state.overlayColumn + (move == .nextPage ? 1 : -1))
                return nil
            }
            if let move: OverlayAction = Keymap.overlay.action(for: key), move != .close {
                let page = max(1, layout.size.height - 6)
                let delta = switch move {
                case .scrollUp: -1
                case .scrollDown: 1
                case .pageUp: -page
                case .pageDown: page
                case .top: -matrix.rows.count
                case .bottom: matrix.rows.count
                case .nextPage, .previousPage, .close, .choose: 0
                }
                let row = max(0, min(matrix.rows.count - 1, selection + delta))
                let (column, outOfDate) = (state.overlayColumn, state.overlayOutOfDate)
                state.overlay = .matrix(matrix, selection: row)
                (state.overlayColumn, state.overlayOutOfDate) = (column, outOfDate)
                state.overlayOffset = max(0, MatrixView.line(ofRow: row) + 1 - (layout.size.height - 4))
                return nil
            }
        case .help, .report, .problems:
            break
        }
        if let action: OverlayAction = Keymap.overlay.action(for: key) {
            scroll(action, &state, page: max(1, layout.size.height - 6))
            return nil
        }
        guard let action = Keymap.action(for: key) else { return nil }
        // A key of the main screen closes the overlay and acts; the key that opened this
        // overlay just closes it.
        state.overlay = nil
        if opens(action, overlay) { return nil }
        return perform(action, &state, layout: layout)
    }

    private static func scroll(_ action: OverlayAction, _ state: inout ViewState, page: Int) {
        switch action {
        case .scrollUp: state.overlayOffset -= 1
        case .scrollDown: state.overlayOffset += 1
        case .pageUp: state.overlayOffset -= page
        case .pageDown: state.overlayOffset += page
        case .top: state.overlayOffset = 0
        case .bottom: state.overlayOffset = Int(Int32.max)
        case .close, .choose: state.overlay = nil
        case .nextPage, .previousPage: break
        }
        state.overlayOffset = max(0, state.overlayOffset)
    }

    private static func opens(_ action: Action, _ overlay: ViewState.Overlay) -> Bool {
        switch (action, overlay) {
        case (.help, .help), (.problems, .problems), (.whatsNew, .whatsNew), (.matrix, .matrix): true
        default: false
        }
    }
}
