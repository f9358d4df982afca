import MigrationCore

/// One line naming the upgrade: "Notes 0.8 → 1.0 (build 90 → 100)".
func upgradeSummary(app: String, plan: MigrationPlan, glyphs: Glyphs) -> String {
    upgradeSummary(app: app, from: plan.state.lastMigratedVersion ?? "fresh install",
                   fromBuild: plan.state.lastMigratedBuild ?? "none", target: plan.target, glyphs: glyphs)
}

/// The same line from its parts, for when there is no plan (the recorded marks are "unknown").
func upgradeSummary(app: String, from: String, fromBuild: String, target: AppTarget, glyphs: Glyphs) -> String {
    var line = "\(app) \(from) \(glyphs.arrow) \(target.version.text)"
    if let build = target.build { line += " (build \(fromBuild) \(glyphs.arrow) \(build.text))" }
    return line
}
