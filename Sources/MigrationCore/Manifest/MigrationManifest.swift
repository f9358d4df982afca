import Foundation

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
    /// What is odd but not wrong (releases out of order), by field, for a front end to show.
    public var warnings: [ManifestError.Problem] = []
    /// The manifest's `run` and `timeout` fields, so that writing it again keeps them.
    public var commands = ManifestCommands()

    /// The manifest written again (see ``MigrationRegistry/manifest(appVersion:appBuild:releases:commands:)``),
    /// its `run` and `timeout` fields kept: loading it gives the same manifest.
    ///
    /// ```swift
    /// let data = try Manifest.load(path: "manifest.json").written()
    /// ```
    public func written(appVersion: String? = nil, appBuild: String? = nil) -> Data {
        registry.manifest(appVersion: appVersion ?? self.appVersion, appBuild: appBuild ?? self.appBuild, commands: commands)
    }

    public init(registry: MigrationRegistry, appVersion: String, appBuild: String? = nil, runsCommands: Bool = false) {
        self.registry = registry
        self.appVersion = appVersion
        self.appBuild = appBuild
        self.runsCommands = runsCommands
    }
}

/// A manifest's `run`, `timeout` and `sql` fields, by migration and hook id: what a registry's
/// bodies cannot say when it is written again.
public struct ManifestCommands: Sendable, Equatable {
    public struct Command: Sendable, Equatable {
        public var run: String
        public var timeout: Double?
    }

    public var migrations: [Int: Command] = [:]
    public var hooks: [Int: Command] = [:]
    /// Each migration's `sql`, by migration id.
    public var sql: [Int: String] = [:]

    public init() {}
}
