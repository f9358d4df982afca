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
    /// Whether its migrations run external commands (a manifest's `run`), which a sandbox
    /// cannot hold back: only their records are simulated.
    public var runsCommands = false

    public init(
        registry: MigrationRegistry, appVersion: String, appBuild: String? = nil,
        defaultFrom: String? = nil, defaultFromBuild: String? = nil
    ) {
        self.registry = registry
        self.appVersion = appVersion
        self.appBuild = appBuild
        self.defaultFrom = defaultFrom
        self.defaultFromBuild = defaultFromBuild
    }
}
