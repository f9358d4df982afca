import ArgumentParser
import MigrationManifest

/// How long a manifest's commands may take in `run` and `tui`: `--timeout SECONDS` for a
/// command whose migration gives none, and `--kill-after SECONDS` for one told to stop (a
/// signal, Esc, a timeout) before it is killed.
///
/// ```swift
/// var settings = CommandSettings.current
/// limits.apply(to: &settings)      // --timeout 30 --kill-after 5
/// ```
struct CommandLimits: ParsableArguments {
    @Option(parsing: .unconditional,
            help: ArgumentHelp("Stop a manifest's command still running after this many seconds (a migration's own \"timeout\" comes first); a Swift body is never interrupted.", valueName: "seconds"))
    var timeout: Double?

    @Option(name: .customLong("kill-after"), parsing: .unconditional,
            help: ArgumentHelp("How long a manifest's command told to stop (a signal, Esc, a timeout), or the processes a finished command left behind, get to end before SIGKILL.", valueName: "seconds"))
    var killAfter: Double = CommandSettings().grace.inSeconds

    func validate() throws {
        if let timeout, !ManifestCommand.isUsableTimeout(timeout) { throw ValidationError("--timeout must be \(ManifestCommand.timeoutRule)") }
        if !ManifestCommand.isUsableTimeout(killAfter) { throw ValidationError("--kill-after must be \(ManifestCommand.timeoutRule)") }
    }

    /// `settings` with these limits.
    func apply(to settings: inout CommandSettings) {
        settings.timeout = timeout.map { .seconds($0) }
        settings.grace = .seconds(killAfter)
    }
}
