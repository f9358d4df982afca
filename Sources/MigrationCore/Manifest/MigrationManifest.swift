/// A manifest, read and checked: the app's registry and the version it is at.
///
/// ```swift
/// let manifest = try Manifest.load(path: "manifest.json")
/// manifest.registry.releases   // the shipped releases it lists
/// ```
public struct MigrationManifest: Sendable {
    public var registry: MigrationRegistry
    /// The version the app is at now: the default upgrade target.
    public var appVersion: String
    public var appBuild: String?
    /// Whether some migration or hook has a `run` command.
    public var runsCommands: Bool
    /// The migrations with `sql` (`migrations[2] (version 1.1 "Pin notes")`): they need a
    /// store in the app's database, whose transaction their SQL runs in.
    public var sqlMigrations: [String] = []

    public init(registry: MigrationRegistry, appVersion: String, appBuild: String? = nil, runsCommands: Bool = false) {
        self.registry = registry
        self.appVersion = appVersion
        self.appBuild = appBuild
        self.runsCommands = runsCommands
    }
}
