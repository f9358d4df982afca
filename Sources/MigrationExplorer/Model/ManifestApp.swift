import Foundation
import MigrationCore
import MigrationManifest

extension ExplorerApp {
    /// The app a manifest describes, its `run` commands run by the shell (`ShellCommand`)
    /// and its `sql` in the transaction of the database store that records it.
    ///
    /// ```swift
    /// let app = try ExplorerApp(manifestAt: "Examples/notes/manifest.json")
    /// ```
    /// - Throws: `ManifestError` listing every problem.
    public init(manifestAt path: String) throws(ManifestError) {
        self.init(try Self.loadManifest(path: path))
    }

    /// The manifest at `path`, its `run` commands run by the shell and its `sql` in the
    /// transaction of the database store that records it.
    static func loadManifest(path: String) throws(ManifestError) -> MigrationManifest {
        try Manifest.load(path: path, commands: ShellCommand.runner, sql: ManifestSQL.inDatabase)
    }

    init(_ manifest: MigrationManifest) {
        self.init(registry: manifest.registry, appVersion: manifest.appVersion, appBuild: manifest.appBuild)
        sandboxRunsForReal = manifest.runsCommands ? .commands : nil
        sqlMigrations = manifest.sqlMigrations
        actions = StepActions(manifest.commands)
    }
}

extension ManifestSQL {
    /// Runs a manifest's SQL, then its command, in the transaction of the block that records
    /// the migration: the real store's that the run writes (``RealStore/manifestSQL``). A run
    /// on any other store, a sandbox included, records nothing for it and reports
    /// ``ManifestSQLUnavailable``.
    static let inDatabase: Runner = { sql, command in
        { context in
            let runner = CommandSettings.current.lockedStore?.manifestSQL ?? unavailable
            try runner(sql, command)(context)
        }
    }
}

extension ShellCommand {
    /// Runs a manifest's commands with `/bin/sh -c`. A command of a run already cancelled
    /// (while it waited for the store, say) does not start, and its migration is not recorded:
    /// it throws `CancellationError`, so the run stops there as cancelled, not failed.
    static let runner: ManifestCommand.Runner = { manifestCommand in
        let command = ShellCommand(
            command: manifestCommand.run, folder: manifestCommand.folder, identity: manifestCommand.identity,
            timeout: manifestCommand.timeout.map { .seconds($0) })
        return { context in
            if CommandSettings.current.cancellation?.cancellationReason != nil { throw CancellationError() }
            try command.run(context)
        }
    }
}
