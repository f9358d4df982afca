import Foundation
import MigrationCore

/// The details pane's lines for the selected table row.
enum DetailsText {
    static func lines(for state: ViewState, width: Int, glyphs: Glyphs) -> [StyledLine] {
        var lines: [StyledLine] = []
        switch state.selectedItem {
        case .migration(let entry): lines = migration(entry, state: state, width: width, glyphs: glyphs)
        case .hook(let hookPlan): lines = hook(hookPlan, state: state, width: width, glyphs: glyphs)
        case .unplanned(let migration): lines = unplanned(migration, state: state, width: width, glyphs: glyphs)
        case nil where state.isReading:
            break
        case nil:
            if let error = state.planError { lines.appendWrapped("No plan: \(error)", width: width, role: .failed) }
            let empty = state.registry.migrations.isEmpty ? "No migrations registered." : "Nothing matches the filter."
            lines.append(StyledLine(empty, .dim))
        }
        return lines
    }

    private static func migration(_ entry: PlanEntry, state: ViewState, width: Int, glyphs: Glyphs) -> [StyledLine] {
        let migration = entry.migration
        var lines: [StyledLine] = []
        lines.appendWrapped("\(migration.trackAndVersion) \(glyphs.separator) \(migration.title)", width: width, role: .title)
        var status = "\(glyphs.status(entry.status)) \(state.plan?.phrase(of: entry) ?? entry.status.phrase)"
        if let position = state.runPosition[migration.id], !state.heldByInterruptions.contains(migration.id) {
            status += " \(glyphs.separator) runs \(position) of \(state.plan?.pending.count ?? 0)"
        }
        if let live = state.liveStatus(of: .migration(entry), glyphs: glyphs) {
            lines.appendWrapped(live.text, width: width, role: live.role)
        } else {
            lines.appendWrapped(status, width: width, role: entry.status.role)
        }
        if case .skipped(let reason) = entry.status { lines.appendWrapped(explanation(reason), width: width, role: .dim) }
        if let plan = state.plan { lines += interrupted(migration, in: plan, width: width) }
        for problem in state.problems where problem.migrationID == migration.id {
            lines.appendWrapped("\(glyphs.warning) \(problem.severity): \(problem.message)", width: width, role: problem.severity == .error ? .failed : .warning)
            lines.appendWrapped(problem.hint, width: width, indent: "  ", role: .dim)
        }
        lines += actions(of: .migration(migration), state: state, width: width)
        if let step = state.lastReport?.steps.first(where: { if case .migration(let ran) = $0.subject { ran.id == migration.id } else { false } }) {
            lines += lastRun(step, width: width, glyphs: glyphs)
        } else if let record = state.plan?.lastRecord(of: migration) {
            let when = record.date.formatted(.iso8601)
            lines.append(StyledLine(""))
            lines.appendWrapped("Recorded: \(record.outcome.rawValue) at \(when) in \(formatDuration(record.duration))", width: width, role: .dim)
            if let error = record.error { lines.appendWrapped("Error: \(error)", width: width, role: .failed) }
        }
        return lines + about(migration, width: width, glyphs: glyphs)
    }

    /// A migration's interrupted attempts: whether they hold it back, and each with its date
    /// and app build.
    private static func interrupted(_ migration: RegisteredMigration, in plan: MigrationPlan, width: Int) -> [StyledLine] {
        let attempts = plan.interruptedAttempts(of: migration)
        guard !attempts.isEmpty else { return [] }
        var lines: [StyledLine] = []
        if let held = plan.interruptionHoldBack(of: migration) {
            lines.appendWrapped("\(held.description.capitalisingFirst): a run leaves it and its track for now; "
                + InterruptedPhrase.retryHint + " (command line)", width: width, role: .failed)
        } else {
            lines.appendWrapped("Interrupted \(attempts.count == 1 ? "once" : "\(attempts.count) times") (the process died inside it):",
                                width: width, role: .warning)
        }
        for attempt in attempts { lines.appendWrapped(InterruptedPhrase.attempt(attempt), width: width, indent: "  ", role: .dim) }
        return lines
    }

    private static func unplanned(_ migration: RegisteredMigration, state: ViewState, width: Int, glyphs: Glyphs) -> [StyledLine] {
        var lines: [StyledLine] = []
        lines.appendWrapped("\(migration.trackAndVersion) \(glyphs.separator) \(migration.title)", width: width, role: .title)
        lines.append(StyledLine("\(glyphs.unknown) status unknown", .warning))
        if let error = state.planError {
            lines.appendWrapped("No plan could be made, so nothing can run: \(error)", width: width, role: .failed)
        }
        return lines + about(migration, width: width, glyphs: glyphs)
    }

    /// The notes and What's New of a migration.
    private static func about(_ migration: RegisteredMigration, width: Int, glyphs: Glyphs) -> [StyledLine] {
        var lines: [StyledLine] = []
        if let notes = migration.notes {
            lines.append(StyledLine(""))
            lines.appendWrapped(notes, width: width)
        }
        if !migration.whatsNew.isEmpty {
            lines += [StyledLine(""), StyledLine("What's New", .accent)]
            for line in migration.whatsNew { lines.appendWrapped("\(glyphs.bullet) \(line)", width: width, indent: "  ") }
        }
        return lines
    }

    private static func hook(_ hookPlan: HookPlan, state: ViewState, width: Int, glyphs: Glyphs) -> [StyledLine] {
        let hook = hookPlan.hook
        var lines: [StyledLine] = []
        lines.appendWrapped("\(hook.kind) \(glyphs.separator) \(hook.title)", width: width, role: .title)
        let what = hook.track == .version ? "app version" : "app build"
        let live = state.liveStatus(of: .hook(hookPlan), glyphs: glyphs)
        lines.append(StyledLine(live?.text ?? "\(glyphs.hook(fires: hookPlan.fires)) \(hookPlan.fires ? "fires" : "does not fire")",
                                live?.role ?? (hookPlan.fires ? .hook : .dim)))
        lines.appendWrapped("Runs after the migrations whenever the \(what) differs from the one recorded, a fresh install included.", width: width, role: .dim)
        lines += actions(of: .hook(hook), state: state, width: width)
        if let step = state.lastReport?.steps.first(where: { if case .hook(let ran) = $0.subject { ran.id == hook.id } else { false } }) {
            lines += lastRun(step, width: width, glyphs: glyphs)
        }
        return lines
    }

    /// What the step runs (its SQL, its command), after a blank line; nothing for Swift code.
    private static func actions(of subject: RunStep.Subject, state: ViewState, width: Int) -> [StyledLine] {
        let actions = state.actions.lines(for: subject)
        guard !actions.isEmpty else { return [] }
        var lines = [StyledLine("")]
        for action in actions { lines.appendWrapped(action, width: width, indent: "     ", role: .normal) }
        return lines
    }

    /// How a migration or hook did in the last run: result, duration, log and error.
    private static func lastRun(_ step: RunStep, width: Int, glyphs: Glyphs) -> [StyledLine] {
        var lines = [StyledLine("")]
        lines.appendWrapped("Last run: \(glyphs.outcome(step.outcome)) \(step.outcome.word) in \(formatDuration(step.duration))", width: width, role: step.outcome.role)
        if !step.log.isEmpty {
            lines.append(StyledLine("Log", .accent))
            for line in step.log { lines.appendWrapped(line, width: width, indent: "  ", role: .dim) }
        }
        if let error = step.outcome.errorMessage { lines.appendWrapped("Error: \(error)", width: width, role: .failed) }
        return lines
    }

    private static func explanation(_ reason: SkipReason) -> String {
        switch reason {
        case .aboveAppVersion: "Its version is above the app's: it runs once the app reaches it."
        case .outOfOrder: "At or below the recorded version but never ran: MTMigration would silently never run it."
        case .invalidVersion: "Its version cannot be parsed, so it never runs."
        case .duplicate: "Another migration has the same version; only the first declared one counts."
        }
    }
}
