import ArgumentParser
import Foundation
import MigrationCore
import MigrationManifest

/// `run`: runs the pending migrations and firing hooks (or, with `--dry-run`, lists them),
/// streaming commands' output as it comes.
struct RunCommand: AsyncParsableCommand, LooksAtOneUpgrade {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Run the pending migrations and the hooks that fire (or, with --dry-run, list them).",
        discussion: """
        SIGINT, SIGTERM and SIGHUP stop the running command's process group (SIGTERM, then \
        SIGKILL after --kill-after seconds, 2 by default); that migration is not recorded (it shows as \
        "cancelled" and runs next time), nothing after it runs, and the exit status is 128 + the \
        signal's number. A second signal before the step has stopped kills its group at once.

        On a terminal, a live line on stderr shows the running step (n/m), its elapsed time and \
        the last line of its output, or the process the run waits for when another holds the \
        store; elsewhere (a pipe, --json) stderr gets a plain line as each step finishes.
        """)

    @OptionGroup var app: AppOptions
    @OptionGroup var upgrade: UpgradeOptions
    @OptionGroup var stores: StoreOptions
    @Flag(name: .customLong("dry-run"), help: "Run nothing and write nothing: list exactly what a run would execute.")
    var dryRun = false
    @Flag(help: "Write JSON instead of a table.") var json = false
    @Flag(help: "Run a manifest's commands or an app's own migrations against a sandbox (no --store, or --from over one): they run for real, only the records are simulated.")
    var yes = false
    @OptionGroup var limits: CommandLimits
    @Flag(name: .customLong("retry-interrupted"),
          help: "Run a migration held back because earlier attempts of it were interrupted three times at this build (the process died inside it); its command is told how many in MIGRATION_INTERRUPTED_ATTEMPTS.")
    var retryInterrupted = false
    @OptionGroup var waiting: WaitOptions

    /// `run --watch` (and `run --dry-run --watch`): taken only to be refused, saying that a run
    /// happens once and how to follow the plan, rather than argument-parser's "unknown option".
    @Flag(help: .private) var watch = false

    func validate() throws {
        try validateSource()
    }

    func run() async throws {
        if watch {
            let what = dryRun ? "a dry-run shows what one run would do, once" : "a run runs once"
            throw CommandFailure(.usage, "\(what): --watch does not apply; to see the plan again each time the store or the manifest changes, "
                + "run '\(Program.name) plan --watch' with the same store and manifest")
        }
        try await reportingFailures(json: json, store: stores.path) {
            // The store is opened with its wait, which the progress below shows once it is made.
            let showWait = Locked<(@Sendable (StoreWaitChange) -> Void)?>(nil)
            var request = request
            request.waiting = waiting.storeWaiting { change in showWait.value?(change) }
            let explorer = try request.explorer()
            if dryRun { return try write(explorer.dryRun(), explorer: explorer, failure: nil, unwritable: JSONReports.UnwritableStore(explorer)) }
            if let work = explorer.app.sandboxRunsForReal, explorer.isSandbox, !yes,
               MigrationRule.sandboxRunNeedsConsent(try explorer.plan(), bodiesActForReal: true) {
                let what = work == .commands ? "the manifest's commands" : "the app's migrations"
                let told = work == .commands ? " (they get MIGRATION_SANDBOX=1)" : ""
                throw CommandFailure(.usage, "this run executes \(what) against a \(explorer.storeDescription): "
                    + "\(work.warning)\(told); add --yes to run them, or use --dry-run")
            }
            let style = ConsoleStyle.forStandardOutput()
            let plan = try explorer.plan()
            let progress = RunProgress(mode: RunProgress.mode(json: json), store: explorer.storeDescription,
                                       steps: plan.pending.count + plan.firingHookCount, glyphs: style.glyphs)
            defer { progress.stop() }
            showWait.withLock { $0 = { change in progress.lockChanged(change) } }
            let live = json ? nil : LiveOutput(style: style, progress: progress)
            var settings = CommandSettings.current
            let cancellation = RunCancellation()
            settings.cancellation = cancellation
            limits.apply(to: &settings)
            if let live { settings.onOutput = { live.write(line: $0) } }
            let (report, signal) = try await CommandSettings.$current.withValue(settings) {
                // With --json, what the migrations print goes to standard error.
                try await withStandardOutputOnStandardError(if: json) { output in
                    let signals = SignalCancellation(cancellation, json: json ? output : nil)
                    defer { signals.stop() }
                    let report = try await explorer.run(retryingInterrupted: retryInterrupted) { event in
                        signals.observe(event)
                        live?.show(event)
                        progress.show(event)
                    }
                    return (report, signals.received)
                }
            }
            progress.stop()
            var failure = Self.failure(of: report, signal: signal, store: stores.path)
            failure?.reported = json
            try write(report, explorer: explorer, failure: failure)
            if let failure { throw failure }
        }
    }

    /// `unwritable`: a dry-run's notice that a run could not write the store.
    private func write(_ report: RunReport, explorer: Explorer, failure: CommandFailure?, unwritable: JSONReports.UnwritableStore? = nil) throws {
        if json {
            StandardStreams.print(JSONReports.encode(JSONReports.Run(report, error: failure, unwritableStore: unwritable)))
        } else {
            StandardStreams.print(TextReports.run(report, explorer: explorer, unwritable: unwritable, style: .forStandardOutput()).joined(separator: "\n"))
        }
    }

    /// Why the run did not succeed, if it did not.
    /// `store`: the path of the store named, for a failure that concerns it.
    static func failure(of report: RunReport, signal: Int32?, store: String? = nil) -> CommandFailure? {
        if let busy = report.saveError, case .busy = busy.problem {
            let stopped = report.failure.map { " before \($0.subject.label)" } ?? ""
            return CommandFailure(.busy, "\(busy); the run stopped\(stopped) (what ran before stays recorded); \(CommandFailure.busyAdvice)", path: store)
        }
        let reason = report.failure.map { step in "\(step.subject.label) failed: \(step.outcome.errorMessage ?? "")" }
            ?? report.saveError.map(String.init(describing:))
        if let signal {
            let stopped = "stopped by signal \(signal)" + ((reason ?? report.cancellationSummary).map { "; \($0)" } ?? "")
            return CommandFailure(.cancelled, stopped, status: ExitStatus.stopped(bySignal: signal))
        }
        if let reason { return CommandFailure(.migrationFailed, reason) }
        if let held = report.interruptedLines.first {
            let more = report.interruptedLines.count > 1 ? " (and \(report.interruptedLines.count - 1) more)" : ""
            return CommandFailure(.migrationFailed, "held back: \(held)\(more)")
        }
        // A body gave up by throwing `CancellationError`: what it was to do is not done.
        return report.cancellationSummary.map { CommandFailure(.cancelled, "the run was \($0)") }
    }
}
