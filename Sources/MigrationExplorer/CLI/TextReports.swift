import MigrationCore

/// Plans and run reports as aligned text tables with status glyphs.
enum TextReports {
    /// `unwritable`: why runs cannot write the store, said up front.
    static func plan(_ plan: MigrationPlan, explorer: Explorer, unwritable: JSONReports.UnwritableStore? = nil, style: ConsoleStyle) -> [String] {
        let glyphs = style.glyphs
        var lines = [style.paint(upgradeSummary(app: explorer.app.registry.appName, plan: plan, glyphs: glyphs), .title)
            + " \(glyphs.separator) store: \(explorer.storeDescription)"]
        if let note = explorer.historyNote { lines.append(style.paint("note: \(note)", .dim)) }
        if let unwritable { lines.append(notice(unwritable, style: style)) }
        if plan.isBaseline { lines.append("fresh install, baseline policy: a run records every migration up to \(plan.target.version.text) without running it") }
        var table = TextTable()
        table.add([("", .dim), ("STATUS", .dim), ("ORDER", .dim), ("TRACK", .dim), ("VERSION", .dim), ("TITLE", .dim)])
        let runOrder = plan.runPositions
        for entry in plan.entries {
            let migration = entry.migration
            table.add([
                (glyphs.status(entry.status), entry.status.role), (plan.phrase(of: entry), entry.status.role),
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
        let interrupted = plan.interruptedLines
        if !interrupted.isEmpty { lines += ["", "Interrupted"] + interrupted.map { "  " + style.paint($0, $0.hasPrefix(" ") ? .dim : .warning) } }
        let problems = PlanProblem.all(in: plan)
        if !problems.isEmpty {
            lines += ["", "Problems"] + problems.map { "  " + style.paint("\($0.severity): \($0.message)", $0.severity == .error ? .failed : .warning) }
        }
        let firing = plan.firingHookCount
        let summary = "\(plan.pending.count) pending, \(firing.counting("hook")) \(firing.agreeing("fires", "fire"))"
        return lines + ["", summary]
    }

    /// The outcome of each step; the output was written live (see ``LiveOutput``).
    /// `unwritable`: a dry-run's notice that a run could not write the store.
    static func run(_ report: RunReport, explorer: Explorer, unwritable: JSONReports.UnwritableStore? = nil, style: ConsoleStyle) -> [String] {
        let glyphs = style.glyphs
        let verb = report.mode == .dryRun ? "Dry run" : "Run"
        var lines = [style.paint("\(verb): " + upgradeSummary(app: explorer.app.registry.appName, plan: report.plan, glyphs: glyphs), .title)
            + " \(glyphs.separator) store: \(explorer.storeDescription)"]
        for problem in PlanProblem.recordedState(in: report.plan) {
            lines.append(style.paint("\(problem.severity): \(problem.message)", .warning))
        }
        if let unwritable { lines.append(notice(unwritable, style: style)) }
        if report.steps.isEmpty { lines.append("  nothing to do") }
        var table = TextTable()
        for step in report.steps {
            let ran = report.mode == .run && !step.outcome.isHeldBack
            table.add([(glyphs.outcome(step.outcome), step.outcome.role), (step.outcome.word, step.outcome.role),
                       (step.subject.label, .normal), (ran ? formatDuration(step.duration) : "", .dim)])
        }
        let rendered = table.render(style)
        for (step, line) in zip(report.steps, rendered) {
            lines.append(line)
            if report.mode == .dryRun { lines += explorer.app.actions.lines(for: step.subject).map { "      " + style.paint($0, .dim) } }
            // A held-back step is said, with what to do, below the table.
            if let error = step.outcome.errorMessage, !step.outcome.isHeldBack { lines.append("      " + style.paint("error: \(error)", .failed)) }
        }
        if let saveError = report.saveError, report.failure == nil {
            lines.append(style.paint("error: \(saveError)", .failed))
        }
        lines += report.heldBackLines.map { style.paint($0, .failed) }
        lines += report.interruptedLines.map { style.paint($0, .failed) }
        if let cancelled = report.cancellationSummary {
            lines.append(style.paint(cancelled.capitalisingFirst, .failed))
        }
        let state = report.state
        lines += ["", "\(report.mode == .dryRun ? "State after a run" : "State"): last migrated version \(state.lastMigratedVersion ?? "none"), build \(state.lastMigratedBuild ?? "none"); app version \(state.lastAppVersion ?? "none"), build \(state.lastAppBuild ?? "none")"]
        return lines
    }
}

extension TextReports {
    /// The line that says, up front, that runs cannot write the store and what they do then.
    static func notice(_ unwritable: JSONReports.UnwritableStore, style: ConsoleStyle) -> String {
        style.paint("warning: the store cannot be written (\(unwritable.reason)): run, reset and set stop before anything runs (exit \(ExitStatus.unusableInput.rawValue))", .warning)
    }

    /// One row per upgrade path: what runs, what never will, what failed last time, What's New.
    static func matrix(_ matrix: UpgradeMatrix, app: String, style: ConsoleStyle) -> [String] {
        var table = TextTable()
        table.add([("FROM", .dim), ("RUNS", .dim), ("OUT OF ORDER", .dim), ("FAILED LAST RUN", .dim), ("WHAT'S NEW", .dim)])
        for row in matrix.rows {
            func list(_ migrations: [RegisteredMigration]) -> String { migrations.isEmpty ? "-" : migrations.map(\.declared).joined(separator: " ") }
            table.add([
                (row.from?.text ?? "fresh install", .normal), ("\(row.runs.count): \(list(row.runs))", row.runs.isEmpty ? .dim : .pending),
                (list(row.outOfOrder), row.outOfOrder.isEmpty ? .dim : .warning), (list(row.failed), row.failed.isEmpty ? .dim : .failed),
                (row.plan.whatsNew.count.counting("page"), .normal),
            ])
        }
        var lines = [style.paint("Every upgrade of \(app) to \(matrix.target.version.text)", .title), ""] + table.render(style)
        if matrix.rows.count == 1 { lines += ["", "No shipped release below \(matrix.target.version.text): add \"releases\" to see each one's upgrade."] }
        return lines
    }

    /// The upgrade's What's New: plain text, each migration's title above its lines, or
    /// Markdown for release notes, where users read releases, not migrations: a section per
    /// release (the migration's `since`, else its version), its lines alone.
    static func whatsNew(_ plan: MigrationPlan, app: String, markdown: Bool, style: ConsoleStyle) -> [String] {
        let heading = "What's New in \(app) \(plan.target.version.text)"
        var lines = [markdown ? "## \(heading.markdownEscaped.drawable)" : style.paint(heading, .title)]
        if plan.whatsNew.isEmpty { lines += ["", "Nothing new."] }
        if markdown {
            for (release, news) in releaseNotes(plan.whatsNew) {
                lines += ["", "### \(release.markdownEscaped.drawable)", ""] + news.map { "- \($0.markdownEscaped.drawable)" }
            }
            return lines
        }
        for migration in plan.whatsNew {
            lines += ["", style.paint(migration.title, .accent), ""]
            lines += migration.whatsNew.map { "  \(style.glyphs.bullet) \($0.drawable)" }
        }
        return lines
    }

    /// The What's New lines of `migrations` by the release users got them in ("1.0"; "build
    /// 118" for a build's), releases in ascending order, then builds, each in run order.
    private static func releaseNotes(_ migrations: [RegisteredMigration]) -> [(release: String, lines: [String])] {
        var notes: [(release: String, order: (build: Bool, version: Version?), lines: [String])] = []
        for migration in migrations {
            let isBuild = migration.track == .build && migration.since == nil
            let release = migration.sinceDeclared ?? (isBuild ? "build \(migration.declared)" : migration.declared)
            if let index = notes.firstIndex(where: { $0.release == release }) {
                notes[index].lines += migration.whatsNew
            } else {
                notes.append((release, (isBuild, migration.since ?? migration.version), migration.whatsNew))
            }
        }
        let sorted = notes.enumerated().sorted { first, second in
            let (a, b) = (first.element.order, second.element.order)
            if a.build != b.build { return !a.build }
            if let left = a.version, let right = b.version, left != right { return left < right }
            return first.offset < second.offset
        }
        return sorted.map { ($0.element.release, $0.element.lines) }
    }
}

extension MigrationPlan {
    var firingHookCount: Int { hooks.filter(\.fires).count }
}
