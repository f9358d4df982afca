import Foundation
import MigrationCore

/// A manifest's `run`: a shell command, the folder it runs in, the variable naming its
/// migration, and its timeout. This library runs no processes; whoever loads a manifest
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

    /// The command line, run with `/bin/sh -c` by `migration-explorer`.
    public let run: String
    /// The manifest's folder.
    public let folder: URL
    /// `MIGRATION_VERSION` or `MIGRATION_BUILD` and the migration's version; `nil` for hooks.
    public let identity: (name: String, value: String)?
    /// Seconds, when the manifest gives a `timeout`.
    public let timeout: Double?

    /// Whether `seconds` can be a command's timeout, in a manifest or for a whole run: more than
    /// none and at most a year. Longer limits nothing in practice, and a clock's durations could
    /// not hold every such number.
    ///
    /// ```swift
    /// ManifestCommand.isUsableTimeout(60)      // true
    /// ManifestCommand.isUsableTimeout(1e19)    // false: see timeoutRule
    /// ```
    public static func isUsableTimeout(_ seconds: Double) -> Bool { seconds > 0 && seconds <= longestTimeout }

    /// What a timeout must be, for messages.
    public static let timeoutRule = "a positive number of seconds up to a year (\(Int(longestTimeout)))"

    private static let longestTimeout: Double = 365 * 24 * 60 * 60

    /// The runner for code that only reads manifests: a body that fails, saying why.
    public static let unavailable: Runner = { command in
        { _ in throw ManifestCommandUnavailable(command: command.run) }
    }
}

/// A manifest's command run where commands cannot run (outside `migration-explorer`): the
/// error of a body made by ``ManifestCommand/unavailable``.
///
/// ```swift
/// let manifest = try Manifest.load(path: "manifest.json")   // no runner: commands cannot run
/// let report = try MigrationRunner(registry: manifest.registry, target: try AppTarget(version: manifest.appVersion))
///     .run(store: InMemoryMigrationStore())
/// report.failure?.outcome   // .failed("`./scripts/add-guids.sh` is a manifest command: run it with migration-explorer")
/// ```
public struct ManifestCommandUnavailable: Error, CustomStringConvertible {
    /// The command that did not run.
    public let command: String
    /// The command, and where to run it.
    public var description: String { "`\(command)` is a manifest command: run it with migration-explorer" }
}
