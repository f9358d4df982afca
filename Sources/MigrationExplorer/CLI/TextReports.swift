import MigrationCore

/// Plans and run reports as aligned text tables with status glyphs.
enum TextReports {
    static func plan(_ plan: MigrationPlan, explorer: Explorer, style: ConsoleStyle) -> [String] {
        let glyphs = style.glyphs
        var lines = [style.paint(upgradeSummary(app: explorer.app.registry.appName, plan: plan, glyphs: glyphs), .title)
            + " \(glyphs.separator) store: \(explorer.storeDescription)"]
        if plan.isBaseline { lines.append("fresh install, baseline policy: a run records every migration up to \(plan.target.version.text) without running it") }
        var table = TextTable()
        table.add([("", .dim), ("STATUS", .dim), ("ORDER", .dim), ("TRACK", .dim), ("VERSION", .dim), ("TITLE", .dim)])
        let runOrder = plan.runPositions
        for entry in plan.entries {
            let migration = entry.migration
            table.add([
                (glyphs.status(entry.status), entry.status.role), (entry.status.phrase, entry.status.role),
                (runOrder[migration.id].map(String.init) ?? "", .normal), (migration.track.rawValue, .normal),
                (migration.declared, .normal), (migration.title, .normal),
            ])
        }
        lines += [""] + table.render(style)
        if !plan.hooks.isEmpty {
            var hooks = TextTable()
            for hookPlan in plan.hooks {
                hooks.add([(glyphs.hook(fires: hookPlan.fires), hookPlan.fires ? .hook : .dim),
                           (hookPlan.fires ? "fires" : "does not fire", hookPlan.fires ? .hook : .dim),
                           (hookPlan.hook.kind, .normal), (hookPlan.hook.title, .normal)])
            }
            lines += ["", "Hooks"] + hooks.render(style)
        }
        if !plan.problems.isEmpty {
            lines += ["", "Problems"] + plan.problems.map { "  " + style.paint($0.description, $0.severity == .error ? .failed : .warning) }
        }
        let summary = "\(plan.pending.count) pending, \(plan.firingHookCount) hooks fire"
        return lines + ["", summary]
    }

    /// The outcome of each step; the output was written live (see ``LiveOutput``).
    static func run(_ report: RunReport, explorer: Explorer, style: ConsoleStyle) -> [String] {
        let glyphs = style.glyphs
        let verb = report.mode == .dryRun ? "Dry run" : "Run"
        var lines = [style.paint("\(verb): " + upgradeSummary(app: explorer.app.registry.appName, plan: report.plan, glyphs: glyphs), .title)
            + " \(glyphs.separator) store: \(explorer.storeDescription)"]
        if report.steps.isEmpty { lines.append("  nothing to do") }
        var table = TextTable()
        for step in report.steps {
            table.add([(glyphs.outcome(step.outcome), step.outcome.role), (step.outcome.word, step.outcome.role),
                       (step.subject.label, .normal), (report.mode == .dryRun ? "" : formatDuration(step.duration), .dim)])
        }
        let rendered = table.render(style)
        for (step, line) in zip(report.steps, rendered) {
            lines.append(line)
            if let error = step.outcome.errorMessage { lines.append("      " + style.paint("error: \(error)", .failed)) }
        }
        if let saveError = report.saveError, report.failure == nil {
            lines.append(style.paint("error: \(saveError)", .failed))
        }
        let state = report.state
        lines += ["", "\(report.mode == .dryRun ? "State after a run" : "State"): last migrated version \(state.lastMigratedVersion ?? "none"), build \(state.lastMigratedBuild ?? "none"); app version \(state.lastAppVersion ?? "none"), build \(state.lastAppBuild ?? "none")"]
        return lines
    }
}

extension MigrationPlan {
    var firingHookCount: Int { hooks.filter(\.fires).count }
}
