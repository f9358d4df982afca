import MigrationCore
import MigrationManifest

/// What a manifest's step does besides its title, as a run would execute it: its SQL, then its
/// command and timeout. The dry-run, the details pane and the run's confirmation show it, so
/// that nothing runs that was not shown first. An app's own Swift code has none to show.
///
/// ```swift
/// let actions = StepActions(manifest.commands)
/// actions.lines(for: .migration(migration))   // ["run: ./scripts/add-guids.sh (timeout 60 s)"]
/// ```
package struct StepActions: Sendable {
    let commands: ManifestCommands

    package init(_ commands: ManifestCommands = ManifestCommands()) {
        self.commands = commands
    }

    /// The step's SQL (one line each) and command, labelled; empty when it has neither.
    func lines(for subject: RunStep.Subject) -> [String] {
        switch subject {
        case .migration(let migration): lines(sql: commands.sql[migration.id], command: commands.migrations[migration.id])
        case .hook(let hook): lines(sql: nil, command: commands.hooks[hook.id])
        }
    }

    private func lines(sql: String?, command: ManifestCommands.Command?) -> [String] {
        var lines = (sql?.split(whereSeparator: \.isNewline) ?? []).enumerated().map { index, line in
            (index == 0 ? "sql: " : "     ") + line
        }
        if let command {
            lines.append("run: \(command.run)" + (command.timeout.map { " (timeout \(Duration.seconds($0).secondsText) s)" } ?? ""))
        }
        return lines
    }
}
