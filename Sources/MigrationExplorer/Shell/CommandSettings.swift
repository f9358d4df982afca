import MigrationCore

/// How manifest commands run during one run: what they are told about the store, how long
/// they may take, where their output goes as it comes, and what can stop them.
///
/// A task-local, so that the front end running the plan sets it once around the run and every
/// ``ShellCommand`` in the registry sees it:
///
/// ```swift
/// var settings = CommandSettings.current
/// settings.timeout = .seconds(30)
/// settings.onOutput = { line in print("0.9 │ \(line)") }
/// let report = try CommandSettings.$current.withValue(settings) { try explorer.run() }
/// ```
struct CommandSettings: Sendable {
    /// The settings of the run in progress.
    @TaskLocal static var current = CommandSettings()

    /// Whether the records go to a sandbox (`MIGRATION_SANDBOX=1`) rather than a real store.
    var sandbox = true
    /// `MIGRATION_STORE`: the real store's path, or "memory" for a sandbox.
    var storeName = "memory"
    /// The real store whose lock a command inherits (see ``RealStore/lockDescriptor``), and whose
    /// transaction a manifest's `"sql"` runs in (``RealStore/manifestSQL``).
    var lockedStore: (any RealStore)?
    /// The variables a command does not inherit: the real store's secret (``RealStore/secretVariables``).
    var withheldVariables: [String] = []
    /// The limit for commands whose manifest entry gives none; `nil`: no limit.
    var timeout: Duration?
    /// How long a command told to stop gets before SIGKILL.
    var grace: Duration = .seconds(2)
    /// Each line of output, as it comes; called on a background thread.
    var onOutput: @Sendable (String) -> Void = { _ in }
    /// A command is about to start; given the command.
    var onCommandStart: @Sendable (String) -> Void = { _ in }
    /// Stops the run from outside: the front end's own for each run (a signal, a key), or
    /// the one ``Explorer/run(observer:)`` makes for a run given none. Never shared by two runs:
    /// once cancelled, it keeps every later command from starting.
    var cancellation: RunCancellation?

    /// These settings for a run against `store` (`real` when it is not a sandbox).
    func against(real store: (any RealStore)?) -> CommandSettings {
        var settings = self
        settings.sandbox = store == nil
        settings.storeName = store?.displayPath ?? "memory"
        settings.lockedStore = store
        settings.withheldVariables = store?.secretVariables ?? []
        return settings
    }
}
