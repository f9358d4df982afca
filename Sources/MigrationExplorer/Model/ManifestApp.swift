import Foundation
import MigrationCore

extension ExplorerApp {
    /// The app a manifest describes, its `run` commands run by the shell (``ShellCommand``).
    ///
    /// ```swift
    /// let app = try ExplorerApp(manifestAt: "Examples/notes/manifest.json")
    /// ```
    /// - Throws: ``ManifestError`` listing every problem.
    public init(manifestAt path: String) throws(ManifestError) {
        self.init(try Manifest.load(path: path, commands: ShellCommand.runner))
    }

    init(_ manifest: MigrationManifest) {
        self.init(registry: manifest.registry, appVersion: manifest.appVersion, appBuild: manifest.appBuild)
        runsCommands = manifest.runsCommands
    }
}

extension ShellCommand {
    /// Runs a manifest's commands with `/bin/sh -c`.
    static let runner: ManifestCommand.Runner = { manifestCommand in
        let command = ShellCommand(
            command: manifestCommand.run, folder: manifestCommand.folder, identity: manifestCommand.identity,
            timeout: manifestCommand.timeout.map { .milliseconds(($0 * 1000).rounded()) })
        return { context in try command.run(context) }
    }
}
