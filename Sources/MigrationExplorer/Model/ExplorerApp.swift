import MigrationCore

/// An app whose migrations the explorer shows: its registry and its current version, plus
/// the device the explorer starts from when none is named.
///
/// ```swift
/// var registry = MigrationRegistry(appName: "Notes")
/// registry.migrate(toVersion: "1.0", title: "Add GUIDs") { _ in }
/// let app = ExplorerApp(registry: registry, appVersion: "1.0", appBuild: "120")
/// ```
public struct ExplorerApp: Sendable {
    public var registry: MigrationRegistry
    /// The version the app is at now: the default upgrade target.
    public var appVersion: String
    public var appBuild: String?
    /// The device to simulate when `--from` is not given; `nil` is a fresh install.
    public var defaultFrom: String?
    public var defaultFromBuild: String?
    /// Called with the recorded state of each device the explorer starts playing (at start,
    /// after a reset, after a new "from"), for an app whose migrations change real data: it
    /// puts that data back as such a device has it, so a run after a reset does what the
    /// first one did. The built-in demo rewrites its notes file.
    public var prepareDevice: (@Sendable (MigrationState) -> Void)?

    /// Whether its migrations run external commands (a manifest's `run`), which a sandbox
    /// cannot hold back: only their records are simulated.
    public var runsCommands = false

    /// The manifest's migrations that run SQL (`migrations[2] (version 1.1 "Pin notes")`):
    /// they need a SQLite store, whose database they change in the transaction that records them.
    public var sqlMigrations: [String] = []

    public init(
        registry: MigrationRegistry, appVersion: String, appBuild: String? = nil,
        defaultFrom: String? = nil, defaultFromBuild: String? = nil,
        prepareDevice: (@Sendable (MigrationState) -> Void)? = nil
    ) {
        self.registry = registry
        self.appVersion = appVersion
        self.appBuild = appBuild
        self.defaultFrom = defaultFrom
        self.defaultFromBuild = defaultFromBuild
        self.prepareDevice = prepareDevice
    }
}
