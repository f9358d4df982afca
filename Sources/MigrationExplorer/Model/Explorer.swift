import Foundation
import MigrationCore

/// One exploring session, shared by the terminal UI and the command line: an app, the
/// upgrade being looked at (from → to), and the store it plays against: a sandbox that starts
/// as a device at "from", or a real store (``StoreLocation``). Every answer comes from
/// `MigrationCore`; the explorer only keeps the choices.
///
/// ```swift
/// var explorer = try Explorer(app: DemoApp.make(), options: ExplorerOptions(from: try Version("0.8")))
/// let plan = try explorer.plan()
/// explorer.setTarget(version: try Version("1.1"))
/// ```
public struct Explorer: Sendable {
    /// The app whose migrations it shows (a followed manifest's new save, see `adopt(_:)`).
    public private(set) var app: ExplorerApp
    /// The version (and build) the upgrade goes to: the app's, or `--to`'s.
    public private(set) var target: AppTarget
    /// The simulated device's marks; `nil` for both with a real store means "as recorded".
    public private(set) var from: Version?
    /// The build the simulated device last ran; `nil`: none, or as recorded.
    public private(set) var fromBuild: Version?
    /// What a fresh install runs: every migration, or none (`--fresh-install baseline`).
    public let policy: FreshInstallPolicy
    /// Whether the sandbox is a fresh install even though a real store has records.
    public private(set) var simulatesFreshInstall = false
    /// Whether a sandbox over a real store keeps the build it records when "from" names none;
    /// a matrix row's device has no build (``setFrom(release:)``).
    private var keepsRecordedBuild = true
    /// The real store, when one was named.
    public let realStore: (any RealStore)?
    /// Where runs go: a sandbox, or ``realStore``.
    public private(set) var store: any MigrationStore

    /// An explorer of `app`'s upgrade, as `options` say: a sandbox, or a real store.
    ///
    /// ```swift
    /// let explorer = try Explorer(app: app, options: ExplorerOptions(store: .sqlite("notes.sqlite")))
    /// ```
    /// - Throws: ``ExplorerError`` (unusable input) for a version the app declares that is not
    ///   one, or a real store that cannot be read for a simulation.
    public init(app: ExplorerApp, options: ExplorerOptions) throws(ExplorerError) {
        try self.init(app: app, options: options, realStore: options.store?.open())
    }

    /// An explorer over a real store opened already, in place of `options.store`: one that a
    /// front end wraps to watch it, or a test to delay its answers.
    ///
    /// ```swift
    /// let explorer = try Explorer(app: app, options: ExplorerOptions(), realStore: StoreLocation.jsonFile("state.json").open())
    /// ```
    package init(app: ExplorerApp, options: ExplorerOptions, realStore: (any RealStore)?) throws(ExplorerError) {
        self.app = app
        self.policy = options.policy
        self.realStore = realStore
        // Without a store the device is the app's default one; with one, as recorded.
        let appsDevice = realStore == nil
        let from = try Self.version(options.from, orDeclared: appsDevice ? app.defaultFrom : nil, as: "--from")
        let fromBuild = try Self.version(options.fromBuild, orDeclared: appsDevice ? app.defaultFromBuild : nil, as: "--from-build")
        (self.from, self.fromBuild) = (from, fromBuild)
        self.target = AppTarget(
            version: try Self.version(options.to, orDeclared: app.appVersion, as: "the app's version"),
            build: try Self.version(options.toBuild, orDeclared: app.appBuild, as: "the app's build")
        )
        if let realStore, options.from == nil, options.fromBuild == nil {
            self.store = realStore
        } else {
            self.store = try Self.sandbox(app.registry, over: realStore, from: from, fromBuild: fromBuild)
        }
        startDevice()
    }

    /// The runner of the app's registry for ``target`` and ``policy``, which every plan and run
    /// goes through.
    ///
    /// ```swift
    /// let report = try explorer.runner.dryRun(store: explorer.store)
    /// ```
    public var runner: MigrationRunner { MigrationRunner(registry: app.registry, target: target, policy: policy) }

    /// Whether runs go to a throwaway sandbox rather than the real store.
    public var isSandbox: Bool { store.isSandbox }

    /// "sandbox", "sandbox over state.json", "state.json" or "SQLite notes.sqlite (default)",
    /// for headers.
    public var storeDescription: String { storeLabel.text }

    /// ``storeDescription`` in parts, so that a narrow header can cut the path alone and keep
    /// the words that say whether runs are real.
    public var storeLabel: StoreLabel {
        guard let realStore else { return StoreLabel(before: "sandbox") }
        let real = realStore.label
        switch (isSandbox, simulatesFreshInstall) {
        case (true, true): return StoreLabel(before: "sandbox (fresh install; " + real.before, path: real.path, after: real.after + " untouched)")
        case (true, false): return StoreLabel(before: "sandbox over " + real.before, path: real.path, after: real.after)
        case (false, _): return real
        }
    }

    /// The plan of the upgrade from ``store``'s state to ``target``: every migration's status.
    ///
    /// ```swift
    /// for entry in try explorer.plan().entries { print(entry.migration.title, entry.status) }
    /// ```
    public func plan() throws -> MigrationPlan { try runner.plan(store: store) }

    /// Another process's changes to the real store (``RealStore/changes()``), for as long as
    /// the stream is iterated; `nil` without a real store (the demo's sandbox changes only
    /// by the explorer's own hand).
    ///
    /// ```swift
    /// if let changes = try explorer.storeChanges() {
    ///     for await _ in changes { print(try explorer.plan().entries.count) }
    /// }
    /// ```
    /// - Throws: when the store cannot be followed (its folder cannot be watched).
    public func storeChanges() throws -> AsyncStream<StoreChange>? { try realStore?.changes() }

    /// The runs going on now on the real store, for a plan that shows what they committed so
    /// far without waiting for them, the first started first (a run that started later may be
    /// waiting for it): each with its host, pid and since when, printed as "web-3, pid 4121,
    /// since 2026-11-25 18:02:11 UTC". Only a store that can name them does (a PostgreSQL
    /// database, see ``RealStore/runsGoingOn()``); empty for any other, and when they cannot be read.
    ///
    /// ```swift
    /// for run in explorer.runsGoingOn() { print("a run is going on (\(run))") }
    /// ```
    public func runsGoingOn() -> [OngoingRun] { realStore?.runsGoingOn() ?? [] }

    /// Every upgrade path to the target; a real store's history says what failed when last run.
    ///
    /// ```swift
    /// let rows = try explorer.matrix().rows   // one per release a device may still be on
    /// ```
    public func matrix() throws -> UpgradeMatrix {
        try UpgradeMatrix(registry: app.registry, target: target, policy: policy, lastRun: realStore.map { try $0.load() })
    }

    /// What a run would do, on a copy of ``store``'s state: nothing runs, nothing is written.
    public func dryRun() throws -> RunReport { try runner.dryRun(store: store) }

    /// Why runs and resets cannot write the store they go to (`MigrationStore.checkWritable()`);
    /// `nil` when they can, and for a sandbox. Plans and dry-runs show it up front.
    public func storeWriteProblem() -> MigrationStoreError? {
        guard !isSandbox else { return nil }
        return realStoreWriteProblem()
    }

    /// Why the real store cannot be written, sandbox or not (writing the "from" device to it
    /// needs it too); `nil` when it can, or when there is none.
    public func realStoreWriteProblem() -> MigrationStoreError? {
        guard let realStore else { return nil }
        do { try realStore.checkWritable() } catch {
            return error as? MigrationStoreError ?? MigrationStoreError(location: realStore.location, problem: .readOnly(String(describing: error)))
        }
        return nil
    }

    /// Runs the plan, awaiting each body: asynchronous and `@MainActor` bodies of an app's own
    /// registry as well as synchronous ones. Manifest commands learn whether the store is a
    /// sandbox, and inherit a real store's lock (see `CommandSettings`). Cancelling the task
    /// that awaits the run, or the run's `RunCancellation`, ends the running command's process
    /// group and stops the run before the next migration (`RunReport.wasCancelled`).
    ///
    /// A migration held back by its interrupted attempts (`InterruptedHoldBack`) runs only
    /// when `retryingInterrupted`.
    ///
    /// ```swift
    /// let report = try await explorer.run { event in print(event) }
    /// ```
    /// - Throws: the store's error when it cannot be read: then nothing ran.
    public func run(retryingInterrupted: Bool = false, observer: @escaping @Sendable (RunEvent) -> Void = { _ in }) async throws -> RunReport {
        var settings = CommandSettings.current.against(real: isSandbox ? nil : realStore)
        let cancellation = settings.cancellation ?? RunCancellation()
        settings.cancellation = cancellation
        var runner = runner
        runner.retriesInterrupted = retryingInterrupted
        let store = store
        let walk = OwnThread.task {
            try await CommandSettings.$current.withValue(settings) { try await runner.run(store: store, observer: observer) }
        }
        cancellation.whenCancelled { walk.cancel() }
        return try await withTaskCancellationHandler { try await walk.value } onCancel: { cancellation.cancel() }
    }

    /// Starts again: a sandbox goes back to the device at "from"; a real store forgets its four
    /// marks (`MigrationRule.reset(_:at:)`), so every migration up to the app runs again. A
    /// run on the real store (another process's) is waited for, after `onWait`, which may throw
    /// to give up instead (see `MigrationStore.withoutRuns(onWait:_:)`).
    ///
    /// ```swift
    /// try explorer.reset(onWait: { print("waiting for the run going on") })
    /// ```
    /// - Throws: the store's error when it cannot be read or written: then nothing changed.
    public mutating func reset(onWait: () throws -> Void = {}) throws {
        if isSandbox {
            store = try simulatesFreshInstall
                ? Self.freshSandbox()
                : Self.sandbox(app.registry, over: realStore, from: from, fromBuild: fromBuild, keepingRecordedBuild: keepsRecordedBuild)
        } else {
            let store = store
            try store.withoutRuns(onWait: onWait) { try store.update { $0 = MigrationRule.reset($0) } }
        }
        startDevice()
    }

    /// Simulates a device that last migrated at `version` and `build`; neither is a fresh
    /// install, over a real store's records too.
    ///
    /// ```swift
    /// try explorer.setFrom(try Version("0.8"), build: try Version("90"))
    /// ```
    /// - Throws: ``ExplorerError/unreadableStore(_:)`` when the real store under the sandbox
    ///   cannot be read.
    public mutating func setFrom(_ newFrom: Version?, build newBuild: Version? = nil) throws(ExplorerError) {
        try play(from: newFrom, build: newBuild, keepingRecordedBuild: true)
    }

    /// Plays a device that last ran release `release` with no build recorded, as a row of the
    /// ``matrix()`` does (`nil`: a fresh install); a real store's build is not kept, here or
    /// when ``writeFromToRealStore(onWait:)`` writes the device.
    ///
    /// ```swift
    /// try explorer.setFrom(release: matrix.rows[1].from)
    /// ```
    public mutating func setFrom(release: Version?) throws(ExplorerError) {
        try play(from: release, build: release.flatMap { app.releaseBuilds[$0] }, keepingRecordedBuild: false)
    }

    private mutating func play(from newFrom: Version?, build newBuild: Version?, keepingRecordedBuild: Bool) throws(ExplorerError) {
        let fresh = newFrom == nil && newBuild == nil
        store = try fresh
            ? Self.freshSandbox()
            : Self.sandbox(app.registry, over: realStore, from: newFrom, fromBuild: newBuild, keepingRecordedBuild: keepingRecordedBuild)
        (from, fromBuild, simulatesFreshInstall, keepsRecordedBuild) = (newFrom, newBuild, fresh, keepingRecordedBuild)
        startDevice()
    }

    /// The simulated "from" device that ``writeFromToRealStore(onWait:)`` can write, as people read
    /// it ("a device at 0.8 (build 90)"); `nil` when there is no real store, the explorer plays
    /// it as recorded, or the sandbox is a fresh install.
    public var writableDevice: String? {
        guard realStore != nil, isSandbox, from != nil || fromBuild != nil else { return nil }
        return deviceDescription
    }

    /// "a device at 0.8 (build 90)" or "a fresh install"; the build is the one the sandbox
    /// records (a real store's, when no build was given). Played as recorded, the real store's
    /// marks.
    public var deviceDescription: String {
        let recorded = try? store.load()
        let version = from?.text ?? (isSandbox ? nil : recorded?.fromVersion)
        guard version != nil || fromBuild != nil || (!isSandbox && recorded?.fromBuild != nil) else { return "a fresh install" }
        let build = (fromBuild?.text ?? recorded?.fromBuild).map { " (build \($0))" } ?? ", no build recorded"
        return "a device at \(version ?? "no version")\(build)"
    }

    /// Records the simulated "from" device in the real store, its app version marks included
    /// (`MigrationRegistry.device(lastRan:build:over:date:)`), so that the app's next launch replays
    /// the upgrade from there for real; the explorer then plays the real store.
    ///
    /// ```swift
    /// var explorer = try Explorer(app: app, options: ExplorerOptions(from: try Version("0.8"), store: .defaultsPlist(plist)))
    /// try explorer.writeFromToRealStore()   // the plist is now a device that last ran 0.8
    /// ```
    ///
    /// A run on the real store (another process's) is waited for, after `onWait`, which may
    /// throw to give up instead (see `MigrationStore.withoutRuns(onWait:_:)`).
    /// - Throws: ``ExplorerError`` when there is no such device (see ``writableDevice``), or
    ///   the store's error when it cannot be written.
    public mutating func writeFromToRealStore(onWait: () throws -> Void = {}) throws {
        guard writableDevice != nil, let realStore else {
            throw ExplorerError.noSimulatedDevice
        }
        try realStore.withoutRuns(onWait: onWait) {
            try realStore.update { [registry = app.registry, from, fromBuild, keepsRecordedBuild] in
                $0 = Self.device(registry, lastRan: from, build: fromBuild, over: $0, keepingRecordedBuild: keepsRecordedBuild)
            }
        }
        (store, from, fromBuild, keepsRecordedBuild) = (realStore, nil, nil, true)
        startDevice()
    }

    /// Upgrades to app version `version` instead, and to build `build` when one is given (`nil`:
    /// the build stays).
    ///
    /// ```swift
    /// explorer.setTarget(version: try Version("1.2"), build: try Version("130"))
    /// ```
    public mutating func setTarget(version: Version, build: Version? = nil) {
        target.version = version
        if let build { target.build = build }
    }

    /// Shows `app`'s migrations from now on, as a followed manifest's new save declares them;
    /// the upgrade explored (from, to) and the store played stay.
    ///
    /// ```swift
    /// explorer.adopt(try ExplorerApp(manifestAt: "manifest.json"))
    /// ```
    package mutating func adopt(_ app: ExplorerApp) {
        self.app = app
    }

    /// Plays the real store as it records again, after a simulated device (``setFrom(_:build:)``,
    /// ``setFrom(release:)``, `--from`): nothing is written to it.
    ///
    /// ```swift
    /// try explorer.setFrom(try Version("0.8"))
    /// try explorer.playRealStore()   // explorer.isSandbox == false
    /// ```
    /// - Throws: ``ExplorerError/noRealStore`` when no real store was named.
    public mutating func playRealStore() throws(ExplorerError) {
        guard let realStore else { throw .noRealStore }
        (store, from, fromBuild, simulatesFreshInstall, keepsRecordedBuild) = (realStore, nil, nil, false, true)
        startDevice()
    }

    /// Tells the app which device it now plays, so that it can put its data back as that
    /// device has it (see ``ExplorerApp/prepareDevice``). A real store that cannot be read is
    /// left for the plan to report.
    private func startDevice() {
        guard let prepare = app.prepareDevice, let state = try? store.load() else { return }
        prepare(state)
    }

    private static func freshSandbox() -> InMemoryMigrationStore { InMemoryMigrationStore(state: .freshInstall) }

    /// Why the simulated device's history is guessed, when it is: a "from" that is not one of
    /// the app's releases, or an app that declares none (see `MigrationRegistry.device(lastRan:build:)`).
    public var historyNote: String? {
        guard isSandbox, realStore == nil, !simulatesFreshInstall else { return nil }
        return app.registry.device(lastRan: from, build: fromBuild).note
    }

    /// A sandbox for the device that last ran `from`: as replaying the app's releases up to
    /// `from` left it, over the real store's records when there is one.
    private static func sandbox(
        _ registry: MigrationRegistry, over realStore: (any RealStore)?, from: Version?, fromBuild: Version?,
        keepingRecordedBuild: Bool = true
    ) throws(ExplorerError) -> InMemoryMigrationStore {
        guard let realStore else { return InMemoryMigrationStore(state: registry.device(lastRan: from, build: fromBuild).state) }
        do {
            return InMemoryMigrationStore(state: device(registry, lastRan: from, build: fromBuild, over: try realStore.load(),
                                                        keepingRecordedBuild: keepingRecordedBuild))
        } catch {
            throw .unreadableStore(String(describing: error))
        }
    }

    /// `recorded` as a device that last ran `from` (and `build`); without a build, the recorded
    /// build marks stay, unless `keepingRecordedBuild` is false: then no build is recorded.
    private static func device(
        _ registry: MigrationRegistry, lastRan from: Version?, build: Version?, over recorded: MigrationState, keepingRecordedBuild: Bool
    ) -> MigrationState {
        var device = registry.device(lastRan: from, build: build, over: recorded)
        if build == nil, !keepingRecordedBuild { (device.lastMigratedBuild, device.lastAppBuild) = (nil, nil) }
        return device
    }

    /// `given`, else the version the app declares (`text`), `source` naming it for the error.
    private static func version(_ given: Version?, orDeclared text: String, as source: String) throws(ExplorerError) -> Version {
        if let given { return given }
        do { return try Version(text) } catch { throw .appVersion(of: source, error) }
    }

    /// `given`, else the version the app may declare (`text`), `source` naming it for the error.
    private static func version(_ given: Version?, orDeclared text: String?, as source: String) throws(ExplorerError) -> Version? {
        guard let text else { return given }
        let version: Version = try version(given, orDeclared: text, as: source)
        return version
    }
}

/// Which store an explorer plays, as words around a path: "sandbox over " + path.
///
/// ```swift
/// let label = explorer.storeLabel
/// print(label.before, label.path, label.after)   // a front end may shorten the path alone
/// ```
public struct StoreLabel: Sendable, Equatable {
    /// The words before the path: "sandbox over ".
    public var before = ""
    /// The store's path, or a server's redacted URL.
    public var path = ""
    /// The words after the path: a domain.
    public var after = ""

    /// The whole label, as one line.
    public var text: String { before + path + after }
}

/// The choices a front end passes to an ``Explorer``: the command line's options, their
/// versions parsed already.
///
/// ```swift
/// let options = ExplorerOptions(from: try Version("0.8"), store: .jsonFile("state.json"))
/// ```
public struct ExplorerOptions: Sendable, Equatable {
    /// The device the sandbox starts as; `nil` with a real store: as recorded.
    public var from: Version?
    /// The app version to upgrade to; `nil`: the app's.
    public var to: Version?
    /// The build the sandbox's device last ran.
    public var fromBuild: Version?
    /// The app build to upgrade to; `nil`: the app's.
    public var toBuild: Version?
    /// The real store; `nil`: a sandbox only.
    public var store: StoreLocation?
    /// What a fresh install runs.
    public var policy: FreshInstallPolicy

    /// Options with every choice given, the rest as a front end's defaults.
    public init(
        from: Version? = nil, to: Version? = nil, fromBuild: Version? = nil, toBuild: Version? = nil,
        store: StoreLocation? = nil, policy: FreshInstallPolicy = .runAll
    ) {
        self.from = from
        self.to = to
        self.fromBuild = fromBuild
        self.toBuild = toBuild
        self.store = store
        self.policy = policy
    }
}
