import MigrationCore

/// Boxes drawn over the main screen: help, run and dry-run reports, the problems, What's New,
/// the upgrade matrix, confirmations. Every one but the confirmation scrolls, no further than its last line.
enum Overlays {
    /// What a box shows.
    struct Content {
        let title: String
        let lines: [StyledLine]
        let footer: String
    }

    /// How far `overlay` can scroll on a screen of `size`: its last line at the bottom.
    static func maxOffset(_ overlay: ViewState.Overlay, state: ViewState, size: Size, glyphs: Glyphs) -> Int {
        max(0, content(overlay, state: state, size: size, glyphs: glyphs).lines.count - (size.height - 4))
    }

    static func draw(_ overlay: ViewState.Overlay, state: ViewState, on screen: inout Screen, glyphs: Glyphs) {
        box(content(overlay, state: state, size: screen.size, glyphs: glyphs), offset: state.overlayOffset, on: &screen, glyphs: glyphs)
    }

    /// The fewest columns of a step's label a report keeps.
    private static let shortestLabel = 12

    /// A dry-run's or matrix's title once the store changed under it, short enough to show
    /// whole on a narrow screen: the key that redoes it. `nil` while it is up to date.
    private static func outOfDate(_ state: ViewState, redo key: String) -> String? {
        state.overlayOutOfDate ? "Out of date: the store changed; \(key) to redo" : nil
    }

    /// Text width inside a box on a screen of `size`.
    static func innerWidth(_ size: Size) -> Int { min(size.width - 4, 78) - 4 }

    private static func content(_ overlay: ViewState.Overlay, state: ViewState, size: Size, glyphs: Glyphs) -> Content {
        let inner = innerWidth(size)
        let scroll = "\(glyphs.unicode ? "↑↓" : "Up/Down") scroll · Esc closes"
        switch overlay {
        case .help:
            return Content(title: "Keys", lines: helpLines(width: inner, glyphs: glyphs), footer: scroll)
        case .report(let report):
            let title = report.mode == .dryRun ? outOfDate(state, redo: "d") ?? "Dry run" : "Run"
            return Content(title: title, lines: reportLines(report, actions: state.actions, width: inner, glyphs: glyphs), footer: scroll)
        case .problems:
            return Content(title: "Problems", lines: problemLines(state, width: inner, glyphs: glyphs), footer: scroll)
        case .whatsNew(let pages, let page):
            let title = "What's New in \(state.appName) \(state.target.version.text) \(glyphs.separator) \(page + 1) of \(pages.count)"
            let next = page + 1 < pages.count ? "Enter next" : "Enter done"
            return Content(title: title, lines: whatsNewLines(pages[min(page, pages.count - 1)], width: inner, glyphs: glyphs),
                           footer: "\(next) · \(glyphs.unicode ? "←" : "Left") back · Esc closes")
        case .matrix(let matrix, let selection):
            return Content(title: outOfDate(state, redo: "m") ?? "Every upgrade of \(state.appName) to \(matrix.target.version.text)",
                           lines: MatrixView.lines(matrix, selection: selection, firstColumn: state.overlayColumn, width: inner, glyphs: glyphs),
                           footer: "\(glyphs.unicode ? "↑↓" : "Up/Down") choose · Enter upgrades from it · Esc closes")
        case .confirm(let confirmation):
            let question = switch confirmation {
            case .reset where state.isSandbox:
                "Reset the sandbox? It goes back to \(state.sandboxDevice ?? "the device it started as"): the records its runs made are forgotten, "
                    + "so this upgrade's migrations are pending again. Nothing outside the sandbox changes."
            case .reset:
                // The store on a line of its own, its path cut from the start, so the question ends on it.
                "Reset \(Header.cuttingPath(of: state.storeLabel, after: "", width: inner - "Reset ?".count, ellipsis: glyphs.ellipsis))?\n"
                    + forgotten(state.plan?.state.markPhrases ?? [], target: state.target.version.text)
            case .run where state.isSandbox:
                "Run the pending migrations? " + (state.sandboxRunsForReal?.warning ?? "").capitalisingFirst + " (\(state.storeDescription))."
            case .run: "Run the pending migrations against the real store \(state.storeDescription)?"
            case .writeFrom:
                "Write \(state.writableDevice ?? "this device") to the real store \(state.realStorePath ?? "")? "
                    + "Its marks, the app version's included, become this device's, so the app's next launch replays this upgrade; quit the app first."
            }
            var lines: [StyledLine] = []
            lines.appendWrapped(question, width: inner)
            if case .run = confirmation { lines += commandLines(state, width: inner, room: size.height - 8 - lines.count, glyphs: glyphs) }
            lines += [StyledLine(""), StyledLine("y: yes    n, Enter or Esc: no", .accent)]
            return Content(title: "Are you sure?", lines: lines, footer: "no is the default")
        }
    }

    /// The commands and SQL a run of the pending migrations would execute, one line each,
    /// as many as `room` lines hold; the dry-run (`d`) lists them all. A migration held back by
    /// its interruptions runs nothing, nor does its track after it.
    private static func commandLines(_ state: ViewState, width: Int, room: Int, glyphs: Glyphs) -> [StyledLine] {
        var held: Set<MigrationTrack> = []
        let runnable = (state.plan?.pending ?? []).filter { entry in
            if state.heldByInterruptions.contains(entry.migration.id) { held.insert(entry.migration.track) }
            return !held.contains(entry.migration.track)
        }
        let migrations = runnable.flatMap { entry in
            state.actions.lines(for: .migration(entry.migration)).map { "\(entry.migration.declared): \($0)" }
        }
        let hooks = (state.plan?.hooks ?? []).filter { $0.fires && !held.contains($0.hook.track) }.flatMap { hookPlan in
            state.actions.lines(for: .hook(hookPlan.hook)).map { "\(hookPlan.hook.kind): \($0)" }
        }
        let actions = migrations + hooks
        guard !actions.isEmpty, room >= 3 else { return [] }
        let shown = actions.count <= room - 1 ? actions.count : room - 2
        var lines = [StyledLine(""), StyledLine("It executes:", .dim)]
        lines += actions.prefix(shown).map { StyledLine("  " + $0.cut(toWidth: width - 2, ellipsis: glyphs.ellipsis), .dim) }
        if shown < actions.count { lines.append(StyledLine("  \(glyphs.ellipsis) and \(actions.count - shown) more: d shows every one", .dim)) }
        return lines
    }

    /// What a reset of a real store recording `marks` forgets.
    private static func forgotten(_ marks: [String], target: String) -> String {
        guard !marks.isEmpty else { return "It records no mark: nothing to forget." }
        return "It forgets \(marks.joined(separator: ", ")), and a reset record closes its history, so every migration up to \(target) runs again."
    }

    /// Every key, from the keymap: keys in a column, what they do wrapped beside them.
    private static func helpLines(width: Int, glyphs: Glyphs) -> [StyledLine] {
        func section<Command>(_ list: [KeyBinding<Command>]) -> [StyledLine] {
            let labels = list.map { $0.keysLabel(unicode: glyphs.unicode) }
            let column = (labels.map(\.displayWidth).max() ?? 0) + 2
            return zip(labels, list).flatMap { label, binding in
                wrap(binding.help, width: max(10, width - column)).enumerated().map { index, text in
                    let keys = index == 0 ? label : ""
                    return StyledLine(keys + String(repeating: " ", count: column - keys.displayWidth) + text)
                }
            }
        }
        return section(Keymap.bindings)
            + [StyledLine(""), StyledLine("In an overlay (other keys close it and act)", .accent)] + section(Keymap.overlay)
            + [StyledLine(""), StyledLine("In a prompt or the filter", .accent)] + section(Keymap.lineEditing)
    }

    private static func problemLines(_ state: ViewState, width: Int, glyphs: Glyphs) -> [StyledLine] {
        guard !state.problems.isEmpty else {
            return [StyledLine(state.plan == nil ? "No plan, so no problems to check." : "No problems: every migration has a valid, unique version, declared in order.", .dim)]
        }
        var lines: [StyledLine] = []
        for (index, problem) in state.problems.enumerated() {
            if index > 0 { lines.append(StyledLine("")) }
            lines.appendWrapped("\(glyphs.warning) \(problem.severity) \(glyphs.separator) \(problem.subject)", width: width,
                                role: problem.severity == .error ? .failed : .warning)
            lines.appendWrapped(problem.message, width: width, indent: "  ")
            lines.appendWrapped("Hint: \(problem.hint)", width: width, indent: "  ", role: .dim)
        }
        return lines
    }

    private static func reportLines(_ report: RunReport, actions: StepActions, width: Int, glyphs: Glyphs) -> [StyledLine] {
        var lines: [StyledLine] = []
        let header = report.mode == .dryRun
            ? "Would run, in this order (nothing was run or written):"
            : "Ran \(report.steps.count.counting("step")):"
        lines.append(StyledLine(report.steps.isEmpty ? "Nothing to do: every migration is applied or skipped." : header, .accent))
        for (index, step) in report.steps.enumerated() {
            // One line a step: when narrow, the label is cut, never the status or the time.
            let duration = report.mode == .dryRun || step.outcome.isHeldBack ? "" : "  " + formatDuration(step.duration)
            let head = "\(String(index + 1).leftPadded(to: 3)) \(glyphs.outcome(step.outcome)) \(step.outcome.word.padding(toLength: 9, withPad: " ", startingAt: 0)) "
            let label = step.subject.label.cut(toWidth: max(Self.shortestLabel, width - head.displayWidth - duration.displayWidth), ellipsis: glyphs.ellipsis)
            lines.append(StyledLine(head + label + duration, step.outcome.role))
            if report.mode == .dryRun {
                for action in actions.lines(for: step.subject) { lines.appendWrapped(action, width: width, indent: "       ", role: .dim) }
            }
            for line in step.log { lines.appendWrapped(line, width: width, indent: "       ", role: .dim) }
            if let error = step.outcome.errorMessage, !step.outcome.isHeldBack {
                lines.appendWrapped("error: \(error)", width: width, indent: "       ", role: .failed)
            }
        }
        if !report.interruptedLines.isEmpty { lines.append(StyledLine("")) }
        for line in report.interruptedLines { lines.appendWrapped(line + ".", width: width, role: .failed) }
        if report.failure != nil {
            lines.append(StyledLine(""))
            lines.appendWrapped("The run stopped at the first failure: what ran before it stays recorded, the failed migration stays pending.", width: width, role: .failed)
            for line in report.heldBackLines { lines.appendWrapped(line + ".", width: width, role: .failed) }
        }
        if let saveError = report.saveError, report.failure == nil { lines.appendWrapped("error: \(saveError)", width: width, role: .failed) }
        let state = report.state
        lines.append(StyledLine(""))
        lines.appendWrapped("\(report.mode == .dryRun ? "Would record" : "Recorded"): version \(state.lastMigratedVersion ?? "none"), build \(state.lastMigratedBuild ?? "none"), app \(state.lastAppVersion ?? "none") (\(state.lastAppBuild ?? "none"))", width: width, role: .dim)
        return lines
    }

    private static func whatsNewLines(_ migration: RegisteredMigration, width: Int, glyphs: Glyphs) -> [StyledLine] {
        var lines = [StyledLine("")]
        lines.appendWrapped("\(migration.title) (\(migration.declared))", width: width, role: .title)
        lines.append(StyledLine(""))
        for line in migration.whatsNew {
            lines.appendWrapped("\(glyphs.bullet) \(line)", width: width, indent: "  ")
        }
        lines.append(StyledLine(""))
        return lines
    }

    /// A bordered box in the middle of the screen, its lines scrolled by `offset`.
    private static func box(_ content: Content, offset: Int, on screen: inout Screen, glyphs: Glyphs) {
        let lines = content.lines
        let width = min(screen.size.width - 4, max(40, min(78, (lines.map(\.text.displayWidth).max() ?? 0) + 4)))
        let height = min(screen.size.height - 2, lines.count + 2)
        let left = (screen.size.width - width) / 2
        let top = (screen.size.height - height) / 2
        let (horizontal, vertical, corners) = glyphs.unicode ? ("─", "│", ["┌", "┐", "└", "┘"]) : ("-", "|", ["+", "+", "+", "+"])
        let bar = String(repeating: horizontal, count: width - 2)
        screen.write(corners[0] + bar + corners[1], row: top, column: left, role: .accent)
        screen.write(" \(content.title) ", row: top, column: left + 2, role: .title, width: width - 4, ellipsis: glyphs.ellipsis)
        let visible = height - 2
        let start = max(0, min(offset, lines.count - visible))
        for row in 0..<visible {
            let y = top + 1 + row
            screen.write(vertical + String(repeating: " ", count: width - 2) + vertical, row: y, column: left, role: .accent)
            screen.fill(row: y, column: left + 1, width: width - 2, role: .normal)
            let index = start + row
            if lines.indices.contains(index) {
                screen.write(lines[index].text, row: y, column: left + 2, role: lines[index].role, width: width - 4, ellipsis: glyphs.ellipsis)
            }
        }
        let more = lines.count > visible ? " \(start + 1)-\(min(lines.count, start + visible)) of \(lines.count) " : ""
        screen.write(corners[2] + bar + corners[3], row: top + height - 1, column: left, role: .accent)
        screen.write(" \(content.footer) ", row: top + height - 1, column: left + 2, role: .dim, width: width - 4 - more.count, ellipsis: glyphs.ellipsis)
        if !more.isEmpty { screen.write(more, row: top + height - 1, column: left + width - 2 - more.count, role: .dim) }
    }
}

extension String {
    func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: " ", count: length - count) + self
    }
}
