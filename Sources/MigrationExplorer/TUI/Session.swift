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
    package var state: ViewState
    /// Whether the terminal draws UTF-8 glyphs: text is measured as it will be drawn.
    package var unicode = true

    /// The effect a session starts with: reading its store.
    package static let opening = Effect.read

    /// A session that has not read its store yet: the loop carries out ``opening`` next.
    package init(explorer: Explorer) {
        self.explorer = explorer
        state = ViewState(appName: explorer.app.registry.appName, storeLabel: explorer.storeLabel,
                          isSandbox: explorer.isSandbox, registry: explorer.app.registry, target: explorer.target)
        state.sandboxRunsForReal = explorer.app.sandboxRunsForReal
        state.actions = explorer.app.actions
        state.awaitedStore = Self.opening
    }

    /// A session that has read its store, as the loop's first effect does: for tests and
    /// measurements, which look at it without a loop.
    nonisolated(nonsending) package static func opened(explorer: Explorer, size: Size = Size(width: 80, height: 24)) async -> Session {
        var session = Session(explorer: explorer)
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
        let effect = Update.handle(event, &state, layout: layout)
        resize(to: size)
        return effect
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
    nonisolated(nonsending) private mutating func perform(_ effect: Effect, size: Size, progress: (ViewState) -> Void = { _ in }) async {
        if effect.isStoreWork {
            _ = handle(.store(await StoreWork.perform(effect, on: explorer)), size: size)
            return
        }
        guard effect == .run else { return }
        let run = startRun(size: size)
        progress(state)
        await run.finish()
        for update in run.takeUpdates() {
            _ = handle(.run(update), size: size)
            if case .ended = update { continue }
            progress(state)
        }
    }
}
