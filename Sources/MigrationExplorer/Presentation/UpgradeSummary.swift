import MigrationCore

/// One line naming the upgrade: "Notes 0.8 → 1.0 (build 90 → 100)", or, `compact`, each build
/// beside its version as the prompts take them: "Notes 0.8 (90) → 1.0 (100)".
func upgradeSummary(app: String, plan: MigrationPlan, glyphs: Glyphs, compact: Bool = false) -> String {
    upgradeSummary(app: app, from: plan.state.fromVersion ?? "fresh install",
                   fromBuild: plan.state.fromBuild ?? "none", target: plan.target, glyphs: glyphs, compact: compact)
}

extension MigrationState {
    /// Where the device comes from, for people: its high-water mark, else the app version it
    /// last ran (a device on which no migration has run yet).
    var fromVersion: String? { lastMigratedVersion ?? lastAppVersion }
    var fromBuild: String? { lastMigratedBuild ?? lastAppBuild }
}

/// The same line from its parts, for when there is no plan (the recorded marks are "unknown").
func upgradeSummary(app: String, from: String, fromBuild: String, target: AppTarget, glyphs: Glyphs, compact: Bool = false) -> String {
    guard let build = target.build else { return "\(app) \(from) \(glyphs.arrow) \(target.version.text)" }
    if compact { return "\(app) \(from) (\(fromBuild)) \(glyphs.arrow) \(target.version.text) (\(build.text))" }
    return "\(app) \(from) \(glyphs.arrow) \(target.version.text) (build \(fromBuild) \(glyphs.arrow) \(build.text))"
}
