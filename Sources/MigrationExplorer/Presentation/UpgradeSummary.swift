import MigrationCore

/// One line naming the upgrade: "Notes 0.8 → 1.0 (build 90 → 100)".
func upgradeSummary(app: String, plan: MigrationPlan, glyphs: Glyphs) -> String {
    upgradeSummary(app: app, from: plan.state.fromVersion ?? "fresh install",
                   fromBuild: plan.state.fromBuild ?? "none", target: plan.target, glyphs: glyphs)
}

extension MigrationState {
    /// Where the device comes from, for people: its high-water mark, else the app version it
    /// last ran (a device on which no migration has run yet).
    var fromVersion: String? { lastMigratedVersion ?? lastAppVersion }
    var fromBuild: String? { lastMigratedBuild ?? lastAppBuild }
}

/// The same line from its parts, for when there is no plan (the recorded marks are "unknown").
func upgradeSummary(app: String, from: String, fromBuild: String, target: AppTarget, glyphs: Glyphs) -> String {
    var line = "\(app) \(from) \(glyphs.arrow) \(target.version.text)"
    if let build = target.build { line += " (build \(fromBuild) \(glyphs.arrow) \(build.text))" }
    return line
}
