/// The problems a plan finds beyond the declarations' versions: a `since` that is not a
/// version, and each migration this device will never run (out of order), with a version
/// that would run.
enum ReleaseProblems {
    static func find(
        in entries: [PlanEntry], registry: MigrationRegistry, state: MigrationState, prior: PriorHistory, target: AppTarget
    ) -> [ValidationProblem] {
        var problems: [ValidationProblem] = []
        for migration in registry.migrations {
            if let error = migration.sinceError { problems.append(ValidationProblem(migration: migration, kind: .invalidSince(error))) }
        }
        // Worked out once a track: the highest release is a search through every release.
        var suggested: [MigrationTrack: String] = [:]
        for entry in entries where entry.status == .skipped(.outOfOrder) {
            let migration = entry.migration
            guard let version = migration.version else { continue }
            let why = MigrationRule.whyNeverRan(version, since: migration.since, on: migration.track, before: prior) ?? .noRecord
            let suggestion = suggested[migration.track] ?? suggestion(on: migration.track, registry: registry, target: target)
            suggested[migration.track] = suggestion
            problems.append(ValidationProblem(migration: migration, kind: .outOfOrder(
                lastMigrated: state.lastMigrated(migration.track) ?? "", suggested: suggestion, why: why)))
        }
        return problems
    }

    /// A version above every release (a patch of the last one: 1.0 → 1.0.1), or a build
    /// above the app's (120 → 121).
    static func suggestion(on track: MigrationTrack, registry: MigrationRegistry, target: AppTarget) -> String {
        let last = track == .version ? registry.releases.max() ?? target.version : target.build ?? target.version
        var components = last.components
        while track == .version, components.count < 3 { components.append(0) }
        components[components.count - 1] += 1
        return components.map(String.init).joined(separator: ".")
    }
}
