import Foundation
import MigrationCore

/// A manifest, read and checked: the app's registry and the version it is at.
///
/// ```swift
/// let manifest = try Manifest.load(path: "manifest.json")
/// manifest.registry.releases   // the shipped releases it lists
/// ```
public struct MigrationManifest: Sendable {
    /// The manifest's migrations, hooks and releases.
    public var registry: MigrationRegistry
    /// The version the app is at now: the default upgrade target.
    public var appVersion: String
    /// The build the app is at now (`appBuild`), if the manifest gives one.
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

    /// The manifest written again (see `MigrationRegistry.manifest(appVersion:appBuild:releases:commands:)`),
    /// its `run` and `timeout` fields kept: loading it gives the same manifest.
    ///
    /// ```swift
    /// let data = try Manifest.load(path: "manifest.json").written()
    /// ```
    public func written(appVersion: String? = nil, appBuild: String? = nil) -> Data {
        registry.manifest(appVersion: appVersion ?? self.appVersion, appBuild: appBuild ?? self.appBuild, commands: commands)
    }

    /// A manifest of `registry`, for an app at `appVersion` (and `appBuild`).
    ///
    /// ```swift
    /// let manifest = MigrationManifest(registry: registry, appVersion: "1.0", appBuild: "120")
    /// ```
    public init(registry: MigrationRegistry, appVersion: String, appBuild: String? = nil, runsCommands: Bool = false) {
        self.registry = registry
        self.appVersion = appVersion
        self.appBuild = appBuild
        self.runsCommands = runsCommands
    }
}

/// A manifest's `run`, `timeout` and `sql` fields, by migration and hook id: what a registry's
/// bodies cannot say when it is written again.
///
/// ```swift
/// let manifest = try Manifest.load(path: "manifest.json")
/// let first = manifest.registry.migrations[0]
/// manifest.commands.migrations[first.id]?.run   // "./scripts/add-guids.sh"
/// let data = manifest.registry.manifest(appVersion: "1.0", commands: manifest.commands)
/// ```
public struct ManifestCommands: Sendable, Equatable {
    /// A `run` command and its `timeout` in seconds.
    public struct Command: Sendable, Equatable {
        /// The command line.
        public var run: String
        /// Seconds; `nil`: no timeout of its own.
        public var timeout: Double?
    }

    /// Each migration's command, by `RegisteredMigration.id`.
    public var migrations: [Int: Command] = [:]
    /// Each hook's command, by `UpdateHook.id`.
    public var hooks: [Int: Command] = [:]
    /// Each migration's `sql`, by migration id.
    public var sql: [Int: String] = [:]

    /// No commands.
    public init() {}
}
