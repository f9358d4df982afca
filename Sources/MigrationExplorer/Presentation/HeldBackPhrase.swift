import MigrationCore

extension MigrationPlan {
    /// An entry's status as the command line's plan and the details pane say it, with what the
    /// failure rule adds: "failed: runs on the next launch" for a migration whose last run
    /// failed, "pending: held back until version 1.0 succeeds" for one above it on its track.
    /// One held back by its interrupted attempts: "pending: held back, interrupted 3 times at build 120".
    func phrase(of entry: PlanEntry) -> String {
        if entry.status == .failed { return "failed: runs on the next launch" }
        if let held = interruptionHoldBack(of: entry.migration) { return "pending: held back, \(held.attempts.count.counting("interruption")) at \(held.attempts.last?.appName ?? "this build")" }
        if let failed = heldBack(entry) { return "pending: held back until \(failed.trackAndVersion) succeeds" }
        return entry.status.phrase
    }
}

extension RunReport {
    /// What a run that stopped at a failure left for later, in the words the command line and
    /// the terminal UI both use: the failed migration's track held back by the failure rule,
    /// the other track stopped with the run.
    var heldBackLines: [String] {
        guard let failure else { return [] }
        let failedTrack: MigrationTrack? = if case .migration(let failed) = failure.subject { failed.track } else { nil }
        let heldBack = heldBack.filter { $0.track == failedTrack }
        let stopped = self.heldBack.filter { $0.track != failedTrack }
        var lines: [String] = []
        if !heldBack.isEmpty {
            lines.append("Held back until \(failure.subject.label) succeeds: \(Self.trackAndVersions(heldBack)); they run after it next time")
        }
        if !stopped.isEmpty {
            lines.append("Not run, as a run stops at its first failure: \(Self.trackAndVersions(stopped)); they run next time")
        }
        return lines
    }

    /// Migrations named by track and version: "version 1.0, build 118".
    private static func trackAndVersions(_ migrations: [RegisteredMigration]) -> String {
        migrations.map(\.trackAndVersion).joined(separator: ", ")
    }
}
