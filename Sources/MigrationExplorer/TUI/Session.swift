import MigrationCore

/// The terminal UI's model and its link to `MigrationCore`: events go through ``Update``, and
/// the effects it asks for (plan, dry-run, reset, new from/to) are carried out on the
/// ``Explorer``; then every position is normalised. A run's effects go back to the loop,
/// which starts the run (``startRun(size:now:)``) and hands its updates back as events. No
/// terminal needed, so tests drive it directly.
///
/// ```swift
/// var session = Session(explorer: try Explorer(app: DemoApp.make(), options: .init()))
/// session.press(.dryRun, size: Size(width: 80, height: 24))
/// ```
package struct Session {
    package private(set) var explorer: Explorer
    package var state: ViewState
    /// Whether the terminal draws UTF-8 glyphs: text is measured as it will be drawn.
    package var unicode = true

    package init(explorer: Explorer) {
        self.explorer = explorer
        state = ViewState(appName: explorer.app.registry.appName, storeLabel: explorer.storeLabel,
                          isSandbox: explorer.isSandbox, registry: explorer.app.registry, target: explorer.target)
        state.sandboxRunsForReal = explorer.app.sandboxRunsForReal
        state.actions = explorer.app.actions
        showStore()
        refreshPlan()
        if let first = state.items.firstIndex(where: { if case .migration(let entry) = $0 { entry.status.willRun } else { false } }) {
            state.selection = first
        }
        if let note = explorer.historyNote, !explorer.app.registry.releases.isEmpty { state.message = .init(text: note, role: .warning) }
        if let unwritable = state.unwritableStore {
            state.message = .init(text: "\(unwritable): run and reset are off; plan and dry-run work", role: .warning)
        }
        if let run = explorer.runsGoingOn().first {
            state.message = .init(text: "A run is going on (\(run)): the plan shows what it has committed so far", role: .warning)
        }
    }

    /// Handles one event through ``Update``, then carries out the effects it asks of the
    /// explorer (plan, dry-run, reset, new from/to); returns the one the loop carries out
    /// instead (starting, cancelling or giving up a run), if any.
    package mutating func handle(_ event: Event, size: Size) -> Effect? {
        // A message stays while an overlay or prompt is open, and goes with the next key after.
        if case .key = event, state.prompt == nil && state.overlay == nil { state.message = nil }
        // Only a key needs the layout of the state: a run's updates, many a second, do without.
        let layout = if case .key = event { Layout(size, for: state, unicode: unicode) } else { Layout(size) }
        var effect = Update.handle(event, &state, layout: layout)
        if let asked = effect, !asked.isTheLoops {
            perform(asked)
            effect = nil
        }
        if case .run(.ended) = event { showStore() }
        resize(to: size)
        return effect
    }

    /// Starts the run an ``Effect/run`` asks for: the state shows it at once, before it takes
    /// the store (which another process may hold), so that it can be watched and cancelled.
    mutating func startRun(size: Size, now: ContinuousClock.Instant = .now) -> RunTask {
        _ = handle(.run(.began(now)), size: size)
        return RunTask(explorer: explorer)
    }

    /// Handles `key` and, when it starts a run, awaits the run's end: `progress` sees the state
    /// after each of its updates but the last (the run's start, each step's start, progress and
    /// end), then the run's updates are handled as the loop would.
    nonisolated(nonsending) package mutating func handle(_ key: Key, size: Size, progress: (ViewState) -> Void = { _ in }) async {
        guard handle(.key(key), size: size) == .run else { return }
        let run = startRun(size: size)
        progress(state)
        await run.finish()
        for update in run.takeUpdates() {
            _ = handle(.run(update), size: size)
            if case .ended = update { continue }
            progress(state)
        }
    }

    /// Presses the first key bound to `action`.
    nonisolated(nonsending) package mutating func press(_ action: Action, size: Size) async {
        guard let key = Keymap.binding(for: action)?.keys.first else { return }
        await handle(key, size: size)
    }

    /// Types `text` (into a prompt or the filter) and, if asked, presses Enter.
    nonisolated(nonsending) package mutating func type(_ text: String, size: Size, enter: Bool = true) async {
        for character in text { await handle(.character(character), size: size) }
        if enter { await handle(.enter, size: size) }
    }

    /// Fits every position to a terminal of `size` (after a key, or when the terminal resizes).
    package mutating func resize(to size: Size) {
        state.fit(to: size, unicode: unicode)
    }

    private mutating func perform(_ effect: Effect) {
        do {
            switch effect {
            case .run, .cancelRun, .abandonRun:
                return
            case .dryRun:
                let report = try explorer.dryRun()
                state.overlay = .report(report)
                state.message = .init(text: "Dry run: \(report.steps.count.counting("step")) would run; nothing was run or written", role: .pending)
            case .matrix:
                let matrix = try explorer.matrix()
                state.overlay = .matrix(matrix, selection: MatrixView.row(of: explorer.from, in: matrix))
            case .reset:
                let busy = Self.runGoingOn(explorer, instead: "Not reset")
                try explorer.reset(onWait: { throw busy })
                state.lastReport = nil
                refreshPlan()
                state.message = .init(text: explorer.isSandbox
                    ? "Reset: the sandbox is back to \(explorer.deviceDescription)"
                    : "Reset: the four marks in \(explorer.storeDescription) forgotten; every migration up to the app runs again", role: .accent)
            case .setFrom(let version, let build):
                try explorer.setFrom(version, build: build)
                showNewFrom()
            case .setFromRelease(let release):
                try explorer.setFrom(release: release)
                showNewFrom()
            case .writeFrom:
                let device = explorer.deviceDescription
                let busy = Self.runGoingOn(explorer, instead: "Not written")
                try explorer.writeFromToRealStore(onWait: { throw busy })
                state.lastReport = nil
                refreshPlan()
                state.message = .init(text: "Wrote \(device) to \(explorer.storeDescription): the app's next launch replays this upgrade", role: .accent)
            case .setTo(let version, let build):
                explorer.setTarget(version: version, build: build)
                state.target = explorer.target
                refreshPlan()
                state.message = .init(text: "Upgrading to \(version.text)" + (explorer.target.build.map { " (build \($0.text))" } ?? ""), role: .accent)
            case .backToRealStore:
                try explorer.playRealStore()
                state.lastReport = nil
                refreshPlan()
                state.message = .init(text: "Back to the real store \(state.realStorePath ?? explorer.storeDescription), as it records: \(explorer.deviceDescription)", role: .accent)
            }
        } catch {
            state.message = .init(text: String(describing: error), role: .failed)
        }
        if let planError = state.planError { state.message = .init(text: "No plan: \(planError)", role: .failed) }
        showStore()
    }

    /// Why a change to the real store was not made: a run on it (another process's) is going
    /// on. The session does not freeze waiting for it; the change can be made once it ends.
    private static func runGoingOn(_ explorer: Explorer, instead: String) -> ExplorerError {
        let store = explorer.realStore?.displayPath ?? explorer.storeDescription
        return .runGoingOn(refused: instead, store: store)
    }

    /// Which store the session plays, and which device it could write to the real one.
    private mutating func showStore() {
        state.storeLabel = explorer.storeLabel
        state.isSandbox = explorer.isSandbox
        state.realStorePath = explorer.realStore?.displayPath
        state.writableDevice = explorer.writableDevice
        state.sandboxDevice = explorer.isSandbox ? explorer.deviceDescription : nil
        state.unwritableRealStore = explorer.realStoreWriteProblem().map { "\($0.location): cannot be written (\($0.reason))" }
        state.unwritableStore = explorer.isSandbox ? nil : state.unwritableRealStore
    }

    private func fromMessage() -> ViewState.Message {
        if let downgrade = state.plan?.downgrades.first {
            return .init(text: "Simulating \(explorer.deviceDescription): \(downgrade); p lists the problems", role: .warning)
        }
        var text = "Simulating \(explorer.deviceDescription)"
        if explorer.from != nil, explorer.fromBuild == nil, explorer.target.build != nil {
            text += "; give its build as 0.8 (90)"
        }
        if let real = explorer.realStore { text += "; \(real.name) is not touched" }
        if let note = explorer.historyNote, !explorer.app.registry.releases.isEmpty { text += "; \(note)" }
        return .init(text: text, role: .accent)
    }

    /// After a new "from": the plan of the device it names, and a message saying which.
    private mutating func showNewFrom() {
        state.lastReport = nil
        refreshPlan()
        state.message = fromMessage()
    }

    private mutating func refreshPlan() {
        do { state.show(try explorer.plan()) } catch {
            state.showPlanError(String(describing: error))
        }
    }
}

extension Effect {
    /// Whether the loop carries the effect out (it concerns a run) rather than the session.
    var isTheLoops: Bool {
        switch self {
        case .run, .cancelRun, .abandonRun: true
        default: false
        }
    }
}
