import MigrationCore

extension MigrationPlan {
    /// An entry's status as the command line's plan and the details pane say it, with what the
    /// failure rule adds: "failed: runs on the next launch" for a migration whose last run
    /// failed, "pending: held back until version 1.0 succeeds" for one above it on its track.
    func phrase(of entry: PlanEntry) -> String {
        if entry.status == .failed { return "failed: runs on the next launch" }
        if let failed = heldBack(entry) { return "pending: held back until \(failed.trackAndVersion) succeeds" }
        return entry.status.phrase
    }
}
