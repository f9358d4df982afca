import MigrationCore

/// The migration or hook a run is in, as the message line shows it: its name, the progress
/// its body reported and the time it has taken so far.
package struct RunningStep: Sendable {
    package var label: String
    /// From 0 to 1; `nil` until the body reports any.
    package var fraction: Double?
    package let started: ContinuousClock.Instant
    /// Time since ``started``, as of the last redraw.
    package var elapsed: Duration = .zero

    package init(label: String, started: ContinuousClock.Instant) {
        self.label = label
        self.started = started
    }

    /// Brings ``elapsed`` up to `now`.
    package mutating func tick(now: ContinuousClock.Instant = .now) {
        elapsed = now - started
    }

    /// `version 2.0 "Move notes" ▕████░░░░░░▏ 40% │ 1.20 s`, or without the bar before any
    /// progress was reported; in `width` columns, the label cut first, so that the progress
    /// and the time stay readable.
    func line(glyphs: Glyphs, width: Int = .max) -> String {
        let progress = progress(glyphs: glyphs)
        return label.cut(toWidth: width - progress.displayWidth, ellipsis: glyphs.ellipsis) + progress
    }

    /// What follows the label: ` ▕████░░░░░░▏  40% │ 1.20 s`.
    func progress(glyphs: Glyphs) -> String {
        let bar = fraction.map { " " + Self.bar($0, glyphs: glyphs) + String(format: " %3.0f%%", $0 * 100) } ?? ""
        return "\(bar) \(glyphs.unicode ? "│" : "|") \(formatDuration(elapsed.inSeconds))"
    }

    /// A bar ten cells wide, filled in proportion to `fraction`.
    static func bar(_ fraction: Double, glyphs: Glyphs, width: Int = 10) -> String {
        let filled = Int((fraction * Double(width)).rounded(.down))
        let (left, full, empty, right) = glyphs.unicode ? ("▕", "█", "░", "▏") : ("[", "#", "-", "]")
        return left + String(repeating: full, count: filled) + String(repeating: empty, count: width - filled) + right
    }
}

extension ViewState {
    /// Selects the row of `subject`, the step a run has just started, so that the table keeps
    /// it in view and the details show it; a row the filter hides leaves the selection as it is.
    /// The search starts at the selection and wraps around: a run goes down the table, so each
    /// step's row is found a few rows on, and a run of n steps costs O(n), not O(n²).
    mutating func select(_ subject: RunStep.Subject) {
        let start = min(max(selection, 0), items.count)
        let isRow = { (item: Item) in item.isRow(of: subject) }
        guard let index = items[start...].firstIndex(where: isRow) ?? items[..<start].firstIndex(where: isRow),
              index != selection else { return }
        selection = index
        detailsOffset = 0
    }

    /// While a run goes, an item's step as it stands, for the table and the details: how it
    /// ended (`✓ succeeded`), or that it is running (`▸ running…`); `nil` otherwise.
    func liveStatus(of item: Item, glyphs: Glyphs) -> (text: String, role: StyleRole)? {
        guard let finished = running else { return nil }
        if let outcome = finished.outcome(of: item) {
            return ("\(glyphs.outcome(outcome)) \(outcome.word)", outcome.role)
        }
        let label: String
        switch item {
        case .migration(let entry): label = RunStep.Subject.migration(entry.migration).label
        case .hook(let hookPlan): label = RunStep.Subject.hook(hookPlan.hook).label
        case .unplanned: return nil
        }
        if runningStep?.label == label { return ("\(glyphs.outcome(.wouldRun)) running\(glyphs.ellipsis)", .pending) }
        return nil
    }
}

extension ViewState.Item {
    /// Whether this row is the one of `subject`, a step of a run.
    func isRow(of subject: RunStep.Subject) -> Bool {
        switch (self, subject) {
        case (.migration(let entry), .migration(let migration)): entry.migration.id == migration.id
        case (.hook(let hookPlan), .hook(let hook)): hookPlan.hook.id == hook.id
        default: false
        }
    }
}
