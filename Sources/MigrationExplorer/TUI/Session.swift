import MigrationCore

/// The terminal UI's model and its link to `MigrationCore`: keys go through ``Update``, and
/// the effects it asks for (plan, dry-run, run, reset, new from/to) are carried out on the
/// ``Explorer``; then every position is normalised. No terminal needed, so tests drive it
/// directly.
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

    /// Handles one key; `progress` sees the state as a run goes: as the run starts (before it
    /// takes the store, which another process may hold), and when a migration starts, reports
    /// progress and finishes (on the thread the run is on).
    nonisolated(nonsending) package mutating func handle(_ key: Key, size: Size, progress: @escaping @Sendable (ViewState) -> Void = { _ in }) async {
        // A message stays while an overlay or prompt is open, and goes with the next key after.
        if state.prompt == nil && state.overlay == nil { state.message = nil }
        if let effect = Update.handle(key, &state, layout: Layout(size, for: state, unicode: unicode)) {
            await perform(effect, size: size, progress: progress)
        }
        resize(to: size)
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

    nonisolated(nonsending) private mutating func perform(_ effect: Effect, size: Size, progress: @escaping @Sendable (ViewState) -> Void) async {
        do {
            switch effect {
            case .dryRun:
                let report = try explorer.dryRun()
                state.overlay = .report(report)
                state.message = .init(text: "Dry run: \(report.steps.count.counting("step")) would run; nothing was run or written", role: .pending)
            case .run:
                var running = state
                running.running = []
                // Shown before the run takes the store, which another process may hold: the
                // run can be watched and cancelled while it waits.
                progress(running)
                let live = Locked(running)
                let unicode = unicode
                let report = try await explorer.run { event in
                    let changed: ViewState? = live.withLock { now in
                        switch event {
                        case .started(let subject):
                            now.runningStep = RunningStep(label: subject.label, started: .now)
                            // The table follows the run, the details too.
                            now.select(subject)
                            now.fit(to: size, unicode: unicode)
                        case .progress(let subject, let fraction):
                            // A finished body's task may still report; only the running one's shows.
                            guard now.runningStep?.label == subject.label else { return nil }
                            // A body may report far more often than a whole percent changes.
                            if let shown = now.runningStep?.fraction, Int(shown * 100) == Int(fraction * 100) { return nil }
                            now.runningStep?.fraction = fraction
                            now.runningStep?.tick()
                        case .finished(let step):
                            now.running?.append(step)
                            now.runningStep = nil
                        }
                        return now
                    }
                    if let changed { progress(changed) }
                }
                // The table stays where the run took it: on the last step that started.
                let ended = live.value
                (state.selection, state.tableTop, state.detailsOffset) = (ended.selection, ended.tableTop, ended.detailsOffset)
                state.lastReport = report
                refreshPlan()
                state.overlay = .report(report)
                state.message = Self.summary(of: report)
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
                state.lastReport = nil
                refreshPlan()
                state.message = fromMessage()
            case .writeFrom:
                let device = explorer.deviceDescription
                let busy = Self.runGoingOn(explorer, instead: "Not written")
                try explorer.writeFromToRealStore(onWait: { throw busy })
                state.lastReport = nil
                refreshPlan()
                state.message = .init(text: "Wrote \(device) to \(explorer.storeDescription): the app's next launch replays this upgrade", role: .accent)
            case .setTo(let text):
                try explorer.setTarget(version: text)
                state.target = explorer.target
                refreshPlan()
                state.message = .init(text: "Upgrading to \(text)", role: .accent)
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
        return ExplorerError("\(instead): a run on \(store) is going on; try again once it has finished", status: .unusableInput)
    }

    /// Which store the session plays, and which device it could write to the real one.
    private mutating func showStore() {
        state.storeLabel = explorer.storeLabel
        state.isSandbox = explorer.isSandbox
        state.realStorePath = explorer.realStore?.displayPath
        state.writableDevice = explorer.writableDevice
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
        if let real = explorer.realStore { text += "; \(real.url.lastPathComponent) is not touched" }
        if let note = explorer.historyNote, !explorer.app.registry.releases.isEmpty { text += "; \(note)" }
        return .init(text: text, role: .accent)
    }

    private mutating func refreshPlan() {
        do { state.show(try explorer.plan()) } catch {
            state.showPlanError(String(describing: error))
        }
    }

    private static func summary(of report: RunReport) -> ViewState.Message {
        let total = report.steps.reduce(0) { $0 + $1.duration }
        if let failure = report.failure {
            return .init(text: "Run stopped at \(failure.subject.label): \(failure.outcome.errorMessage ?? "")", role: .failed)
        }
        if let saveError = report.saveError { return .init(text: String(describing: saveError), role: .failed) }
        if let cancelled = report.cancellationSummary { return .init(text: "Run \(cancelled)", role: .failed) }
        return .init(text: "Ran \(report.steps.count.counting("step")) in \(formatDuration(total))", role: .applied)
    }
}
