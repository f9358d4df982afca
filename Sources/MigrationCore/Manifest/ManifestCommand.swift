import Foundation

/// A manifest's `run`: a shell command, the folder it runs in, the variable naming its
/// migration, and its timeout. `MigrationCore` runs no processes; whoever loads a manifest
/// turns each command into a body (`migration-explorer` runs it with `/bin/sh -c`).
///
/// ```swift
/// let manifest = try Manifest.load(path: "manifest.json") { command in
///     { context in context.log("would run \(command.run)") }
/// }
/// ```
public struct ManifestCommand: Sendable {
    /// Turns a command into the body of its migration or hook.
    public typealias Runner = @Sendable (ManifestCommand) -> MigrationBody

    public let run: String
    /// The manifest's folder.
    public let folder: URL
    /// `MIGRATION_VERSION` or `MIGRATION_BUILD` and the migration's version; `nil` for hooks.
    public let identity: (name: String, value: String)?
    /// Seconds, when the manifest gives a `timeout`.
    public let timeout: Double?

    /// The runner for code that only reads manifests: a body that fails, saying why.
    public static let unavailable: Runner = { command in
        { _ in throw ManifestCommandUnavailable(command: command.run) }
    }
}

/// A manifest's command run where commands cannot run (outside `migration-explorer`).
public struct ManifestCommandUnavailable: Error, CustomStringConvertible {
    public let command: String
    public var description: String { "`\(command)` is a manifest command: run it with migration-explorer" }
}
