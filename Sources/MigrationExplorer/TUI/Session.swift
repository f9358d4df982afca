import MigrationCore

/// The terminal UI's model and its link to `MigrationCore`: events go through ``Update``,
/// which answers with an ``Effect`` for the loop's runtime to carry out (``StoreWork`` for the
/// store, ``RunTask`` for a run); the runtime feeds each result back as an event, and the
/// session keeps the explorer the store's answer brings. Then every position is normalised.
/// Nothing here waits for a store: a new session shows "reading …" until the answer to
/// ``opening`` comes. No terminal needed, so tests drive it directly.
///
/// ```swift
/// var session = await Session.opened(explorer: try Explorer(app: DemoApp.make(), options: .init()))
/// await session.press(.dryRun, size: Size(width: 80, height: 24))
/// ```
package struct Session {
    package private(set) var explorer: Explorer
    /// Where the session's store work is carried out, in the order asked for.
    package let storeWork = StoreWork()
    package var state: ViewState
    /// Whether the terminal draws UTF-8 glyphs: text is measured as it will be drawn.
    package var unicode = true
    /// The manifest followed (`--manifest`), checked before a run starts; `nil`: none.
    package let manifest: FollowedManifest?
    /// A manifest's new save, shown once the store is free to plan it.
    private var savedApp: ExplorerApp?

    /// The effect a session starts with: reading its store.
    package static let opening = Effect.read

    /// A session that has not read its store yet: the loop carries out ``opening`` next.
    package init(explorer: Explorer, manifest: FollowedManifest? = nil) {
        self.explorer = explorer
        self.manifest = manifest
        state = ViewState(appName: explorer.app.registry.appName, storeLabel: explorer.storeLabel,
                          isSandbox: explorer.isSandbox, registry: explorer.app.registry, target: explorer.target)
        state.sandboxRunsForReal = explorer.app.sandboxRunsForReal
        state.actions = explorer.app.actions
        state.awaitedStore = Self.opening
    }

    /// A session that has read its store, as the loop's first effect does: for tests and
    /// measurements, which look at it without a loop.
    nonisolated(nonsending) package static func opened(explorer: Explorer, manifest: FollowedManifest? = nil, size: Size = Size(width: 80, height: 24)) async -> Session {
        var session = Session(explorer: explorer, manifest: manifest)
        await session.perform(opening, size: size)
        return session
    }

    /// Handles one event through ``Update`` and returns the effect it asks of the loop, if
    /// any; a store's answer brings the explorer as the effect left it.
    package mutating func handle(_ event: Event, size: Size) -> Effect? {
        // A message stays while an overlay or prompt is open, and goes with the next key after.
        if case .key = event, state.prompt == nil && state.overlay == nil { state.message = nil }
        if case .store(let answer) = event { explorer = answer.explorer }
        // Only a key needs the layout of the state: a run's updates, many a second, do without.
        let layout = if case .key = event { Layout(size, for: state, unicode: unicode) } else { Layout(size) }
        if case .manifest(.updated(let saved, _)) = event { savedApp = ExplorerApp(saved) }
        var effect = Update.handle(event, &state, layout: layout)
        if effect == .run, let outcome = manifest?.changedSinceShown() { effect = replan(outcome, layout: layout) }
        if let effect, effect.needsTheStore, let app = savedApp { adopt(app) }
        resize(to: size)
        return effect
    }

    /// A run asked for on a manifest saved since the plan shown: it does not start; the new
    /// save is planned instead, and the message line says so.
    private mutating func replan(_ outcome: ManifestFollower.Outcome, layout: Layout) -> Effect? {
        if case .updated(let saved, _) = outcome { savedApp = ExplorerApp(saved) }
        let effect = Update.handle(.manifest(outcome), &state, layout: layout)
        state.message = if case .broken = outcome {
            .init(text: "No run: the manifest changed since the plan shown and cannot be used (\(state.manifestProblem ?? ""))", role: .failed)
        } else {
            .init(text: "Not run: the manifest changed since the plan shown; here is its new plan, r runs it", role: .warning)
        }
        return effect
    }

    /// Shows `app`'s migrations, the upgrade explored staying.
    private mutating func adopt(_ app: ExplorerApp) {
        savedApp = nil
        explorer.adopt(app)
        state.appName = app.registry.appName
        state.registry = app.registry
        state.actions = app.actions
        state.sandboxRunsForReal = app.sandboxRunsForReal
    }

    /// Starts the run an ``Effect/run`` asks for: the state shows it at once, before it takes
    /// the store (which another process may hold), so that it can be watched and cancelled.
    /// `onUpdate` is called when the run has updates waiting (``RunTask/takeUpdates()``).
    mutating func startRun(size: Size, now: ContinuousClock.Instant = .now, onUpdate: @escaping @Sendable () -> Void = {}) -> RunTask {
        _ = handle(.run(.began(now)), size: size)
        return RunTask(explorer: explorer, onUpdate: onUpdate)
    }

    /// Handles `key` and carries out the effect it asks for as the loop would, awaiting the
    /// store's answer or the run's end: `progress` sees the state after each of a run's
    /// updates but the last (the run's start, each step's start, progress and end).
    nonisolated(nonsending) package mutating func handle(_ key: Key, size: Size, progress: (ViewState) -> Void = { _ in }) async {
        guard let effect = handle(.key(key), size: size) else { return }
        await perform(effect, size: size, progress: progress)
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

    /// Carries out `effect` as the loop's runtime does, and awaits its result: the store's
    /// answer, or the run's end. Quitting and redrawing concern a terminal: nothing to do.
    /// The effect's result may ask for another (a change heard meanwhile, read after it): it
    /// is carried out too.
    nonisolated(nonsending) private mutating func perform(_ effect: Effect, size: Size, progress: (ViewState) -> Void = { _ in }) async {
        if effect.isStoreWork {
            if let next = handle(.store(await storeWork.perform(effect, on: explorer)), size: size) { await perform(next, size: size) }
            return
        }
        guard effect == .run else { return }
        let run = startRun(size: size)
        progress(state)
        await run.finish()
        var next: Effect?
        for update in run.takeUpdates() {
            next = handle(.run(update), size: size) ?? next
            if case .ended = update { continue }
            progress(state)
        }
        if let next { await perform(next, size: size) }
    }

    /// Handles `event` as the loop does (a change of the store or the manifest, say), and
    /// carries out the effect it asks for, awaiting the store's answer.
    nonisolated(nonsending) package mutating func receive(_ event: Event, size: Size) async {
        guard let effect = handle(event, size: size) else { return }
        await perform(effect, size: size)
    }
}
