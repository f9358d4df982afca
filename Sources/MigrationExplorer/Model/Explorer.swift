import Foundation
import MigrationCore
import MigrationSQLite

/// One exploring session, shared by the terminal UI and the command line: an app, the
/// upgrade being looked at (from → to), and the store it plays against: a sandbox that starts
/// as a device at "from", or a real ``FileMigrationStore`` or ``SQLiteMigrationStore``. Every answer comes from
/// `MigrationCore`; the explorer only keeps the choices.
///
/// ```swift
/// var explorer = try Explorer(app: DemoApp.make(), options: ExplorerOptions(from: "0.8"))
/// let plan = try explorer.plan()
/// try explorer.setTarget(version: "1.1")
/// ```
public struct Explorer: Sendable {
    public let app: ExplorerApp
    public private(set) var target: AppTarget
    /// The simulated device's marks; `nil` for both with a real store means "as recorded".
    public private(set) var from: Version?
    public private(set) var fromBuild: Version?
    public let policy: FreshInstallPolicy
    /// Whether the sandbox is a fresh install even though a real store has records.
    public private(set) var simulatesFreshInstall = false
    /// The real store, when one was named: a state file or a SQLite database.
    public let realStore: (any MigrationStore)?
    /// Where runs go: a sandbox, or ``realStore``.
    public private(set) var store: any MigrationStore

    /// - Throws: ``ExplorerError`` (unusable input) for a version that is not one, or a real
    ///   store that cannot be read for a simulation.
    public init(app: ExplorerApp, options: ExplorerOptions) throws(ExplorerError) {
        self.app = app
        self.policy = options.policy
        self.realStore = options.sqlitePath.map { SQLiteMigrationStore(path: $0, domain: options.domain) }
            ?? options.storePath.map { FileMigrationStore(url: URL(fileURLWithPath: $0), domain: options.domain) }
        let simulating = options.from != nil || options.fromBuild != nil || realStore == nil
        self.from = try Self.version(options.from ?? (realStore == nil ? app.defaultFrom : nil), option: "--from")
        self.fromBuild = try Self.version(
            options.fromBuild ?? (realStore == nil ? app.defaultFromBuild : nil), option: "--from-build")
        self.target = try AppTarget(
            version: Self.version(options.to ?? app.appVersion, option: "--to")!,
            build: Self.version(options.toBuild ?? app.appBuild, option: "--to-build")
        )
        self.store = simulating ? try Self.sandbox(over: realStore, from: from, fromBuild: fromBuild) : realStore!
        startDevice()
    }

    public var runner: MigrationRunner { MigrationRunner(registry: app.registry, target: target, policy: policy) }

    /// Whether runs go to a throwaway sandbox rather than the real store.
    public var isSandbox: Bool { store.isSandbox }

    /// "sandbox", "sandbox over state.json", "state.json" or "SQLite notes.sqlite (default)",
    /// for headers.
    public var storeDescription: String {
        switch (realStore.map(Self.name(of:)), isSandbox) {
        case (nil, _): "sandbox"
        case (let real?, true) where simulatesFreshInstall: "sandbox (fresh install; \(real) untouched)"
        case (let real?, true): "sandbox over \(real)"
        case (let real?, false): real
        }
    }

    /// How headers name a real store: a state file by its path, a database as
    /// "SQLite notes.sqlite (domain)".
    static func name(of store: any MigrationStore) -> String {
        (store as? FileMigrationStore)?.url.path ?? store.location
    }

    /// The file a real store keeps its records in, as given.
    static func path(of store: any MigrationStore) -> String {
        (store as? FileMigrationStore)?.url.path ?? (store as? SQLiteMigrationStore)?.path ?? store.location
    }

    public func plan() throws -> MigrationPlan { try runner.plan(store: store) }

    public func dryRun() throws -> RunReport { try runner.dryRun(store: store) }

    /// Runs the plan; manifest commands learn whether the store is a sandbox, and inherit a
    /// real store's lock (see ``CommandSettings``).
    public func run(observer: (RunEvent) -> Void = { _ in }) throws -> RunReport {
        try CommandSettings.$current.withValue(CommandSettings.current.against(real: isSandbox ? nil : realStore)) {
            try runner.run(store: store, observer: observer)
        }
    }

    /// Starts again: a sandbox goes back to the device at "from"; a real store forgets its four
    /// marks (``MigrationRule/reset(_:at:)``), so every migration up to the app runs again.
    public mutating func reset() throws {
        if isSandbox {
            store = try simulatesFreshInstall ? Self.freshSandbox() : Self.sandbox(over: realStore, from: from, fromBuild: fromBuild)
        } else {
            try store.update { $0 = MigrationRule.reset($0) }
        }
        startDevice()
    }

    /// Simulates a device that last migrated at `version` and `build`; an empty `version`
    /// (and no build) is a fresh install, over a real store's records too.
    public mutating func setFrom(_ version: String, build: String? = nil) throws(ExplorerError) {
        let newFrom = try Self.version(version.isEmpty ? nil : version, option: "from")
        let newBuild = try Self.version(build.flatMap { $0.isEmpty ? nil : $0 }, option: "from build")
        let fresh = newFrom == nil && newBuild == nil
        store = try fresh ? Self.freshSandbox() : Self.sandbox(over: realStore, from: newFrom, fromBuild: newBuild)
        (from, fromBuild, simulatesFreshInstall) = (newFrom, newBuild, fresh)
        startDevice()
    }

    /// Upgrades to app version `version` instead.
    public mutating func setTarget(version: String) throws(ExplorerError) {
        target.version = try Self.version(version, option: "to")!
    }

    /// Tells the app which device it now plays, so that it can put its data back as that
    /// device has it (see ``ExplorerApp/prepareDevice``). A real store that cannot be read is
    /// left for the plan to report.
    private func startDevice() {
        guard let prepare = app.prepareDevice, let state = try? store.load() else { return }
        prepare(state)
    }

    private static func freshSandbox() -> InMemoryMigrationStore { InMemoryMigrationStore(state: .freshInstall) }

    /// A sandbox for the device at `from`: over the real store's records when there is one.
    private static func sandbox(
        over realStore: (any MigrationStore)?, from: Version?, fromBuild: Version?
    ) throws(ExplorerError) -> InMemoryMigrationStore {
        guard let realStore else { return InMemoryMigrationStore(state: .device(at: from, build: fromBuild)) }
        do { return InMemoryMigrationStore(state: .device(at: from, build: fromBuild, over: try realStore.load())) } catch {
            throw ExplorerError(String(describing: error), status: .unusableInput)
        }
    }

    private static func version(_ text: String?, option: String) throws(ExplorerError) -> Version? {
        guard let text else { return nil }
        do { return try Version(text) } catch {
            throw ExplorerError("\(option): \(error)", status: .unusableInput)
        }
    }
}

/// The choices a front end passes to an ``Explorer``: the command line's options.
public struct ExplorerOptions: Sendable, Equatable {
    public var from: String?
    public var to: String?
    public var fromBuild: String?
    public var toBuild: String?
    public var storePath: String?
    /// A SQLite database to keep the records in (instead of ``storePath``).
    public var sqlitePath: String?
    /// The domain of the store file or database to use.
    public var domain: String
    public var policy: FreshInstallPolicy

    public init(
        from: String? = nil, to: String? = nil, fromBuild: String? = nil, toBuild: String? = nil,
        storePath: String? = nil, sqlitePath: String? = nil, domain: String = FileMigrationStore.defaultDomain,
        policy: FreshInstallPolicy = .runAll
    ) {
        self.from = from
        self.to = to
        self.fromBuild = fromBuild
        self.toBuild = toBuild
        self.storePath = storePath
        self.sqlitePath = sqlitePath
        self.domain = domain
        self.policy = policy
    }
}
