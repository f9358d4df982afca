import MigrationCore

/// One plan as `plan` shows it: the explorer's plan, the runs going on on its store (whose
/// commits so far it shows), and why runs could not write the store; as a table or as JSON.
///
/// ```swift
/// let shown = try PlanShown(explorer)
/// shown.reportRunsGoingOn()
/// StandardStreams.print(shown.text(style: .forStandardOutput()))
/// ```
struct PlanShown {
    let explorer: Explorer
    let plan: MigrationPlan
    let runs: [OngoingRun]
    let unwritable: JSONReports.UnwritableStore?

    /// Reads the store and works the plan out.
    /// - Throws: the store's error when it cannot be read.
    init(_ explorer: Explorer) throws {
        self.explorer = explorer
        plan = try explorer.plan()
        runs = explorer.runsGoingOn()
        unwritable = JSONReports.UnwritableStore(explorer)
    }

    /// Says on standard error that each run going on may commit more than the plan shows.
    func reportRunsGoingOn() {
        for run in runs {
            Program.report("a run is going on (\(run)): this plan shows what it has committed so far")
        }
    }

    /// The `--json` document.
    var json: JSONReports.Plan {
        JSONReports.Plan(plan, app: explorer.app.registry.appName, historyNote: explorer.historyNote,
                         unwritableStore: unwritable, runsGoingOn: runs.map(JSONReports.RunGoingOn.init))
    }

    /// The table and what follows it, as text.
    func text(style: ConsoleStyle) -> String {
        TextReports.plan(plan, explorer: explorer, unwritable: unwritable, style: style).joined(separator: "\n")
    }
}
