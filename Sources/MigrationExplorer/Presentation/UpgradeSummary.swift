import MigrationCore

/// One line naming the upgrade: "Notes 0.8 → 1.0 (build 90 → 100)".
func upgradeSummary(app: String, plan: MigrationPlan, glyphs: Glyphs) -> String {
    let from = plan.state.lastMigratedVersion ?? "fresh install"
    var line = "\(app) \(from) \(glyphs.arrow) \(plan.target.version.text)"
    if let build = plan.target.build {
        line += " (build \(plan.state.lastMigratedBuild ?? "none") \(glyphs.arrow) \(build.text))"
    }
    return line
}
