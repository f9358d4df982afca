import Foundation
import MigrationCore

/// The details pane's lines for the selected table row.
enum DetailsText {
    static func lines(for item: ViewState.Item?, state: ViewState, width: Int, glyphs: Glyphs) -> [StyledLine] {
        guard let item else { return [StyledLine("Nothing matches the filter.", .dim)] }
        switch item {
        case .migration(let entry): return migration(entry, state: state, width: width, glyphs: glyphs)
        case .hook(let hookPlan): return hook(hookPlan, state: state, width: width, glyphs: glyphs)
        }
    }

    private static func migration(_ entry: PlanEntry, state: ViewState, width: Int, glyphs: Glyphs) -> [StyledLine] {
        let migration = entry.migration
        var lines: [StyledLine] = []
        lines.appendWrapped("\(migration.trackAndVersion) \(glyphs.separator) \(migration.title)", width: width, role: .title)
        var status = "\(glyphs.status(entry.status)) \(entry.status.phrase)"
        if let position = state.runPosition[migration.id] {
            status += " \(glyphs.separator) runs \(position) of \(state.plan?.pending.count ?? 0)"
        }
        lines.append(StyledLine(status, entry.status.role))
        if case .skipped(let reason) = entry.status { lines.appendWrapped(explanation(reason), width: width, role: .dim) }
        if let step = state.lastReport?.steps.first(where: { if case .migration(let ran) = $0.subject { ran.id == migration.id } else { false } }) {
            lines += [StyledLine(""), StyledLine("Last run: \(glyphs.outcome(step.outcome)) \(step.outcome.word) in \(formatDuration(step.duration))", step.outcome.role)]
            if !step.log.isEmpty {
                lines.append(StyledLine("Log", .accent))
                for line in step.log { lines.appendWrapped(line, width: width, indent: "  ", role: .dim) }
            }
            if let error = step.outcome.errorMessage { lines.appendWrapped("Error: \(error)", width: width, role: .failed) }
        } else if let record = state.plan?.lastRecord(of: migration) {
            let when = ISO8601DateFormatter().string(from: record.date)
            lines += [StyledLine(""), StyledLine("Recorded: \(record.outcome.rawValue) at \(when) in \(formatDuration(record.duration))", .dim)]
            if let error = record.error { lines.appendWrapped("Error: \(error)", width: width, role: .failed) }
        }
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
        lines.append(StyledLine("\(glyphs.hook(fires: hookPlan.fires)) \(hookPlan.fires ? "fires" : "does not fire")", hookPlan.fires ? .hook : .dim))
        lines.appendWrapped("Runs after the migrations whenever the \(what) differs from the one recorded, a fresh install included.", width: width, role: .dim)
        if let step = state.lastReport?.steps.first(where: { if case .hook(let ran) = $0.subject { ran.id == hook.id } else { false } }) {
            lines += [StyledLine(""), StyledLine("Last run: \(glyphs.outcome(step.outcome)) \(step.outcome.word) in \(formatDuration(step.duration))", step.outcome.role)]
            for line in step.log { lines.appendWrapped(line, width: width, indent: "  ", role: .dim) }
            if let error = step.outcome.errorMessage { lines.appendWrapped("Error: \(error)", width: width, role: .failed) }
        }
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
