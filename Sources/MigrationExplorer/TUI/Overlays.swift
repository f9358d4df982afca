import MigrationCore

/// Boxes drawn over the main screen: help, run and dry-run reports, What's New, confirmations.
enum Overlays {
    /// How far a report can scroll on a screen of `size`: no further than its last line.
    static func maxReportOffset(_ report: RunReport, size: Size) -> Int {
        let lines = reportLines(report, width: innerWidth(size), glyphs: Glyphs(unicode: true)).count
        return max(0, lines - (size.height - 4))
    }

    private static func innerWidth(_ size: Size) -> Int { min(size.width - 4, 78) - 4 }

    static func draw(_ overlay: ViewState.Overlay, state: ViewState, on screen: inout Screen, glyphs: Glyphs) {
        let inner = innerWidth(screen.size)
        switch overlay {
        case .help:
            box(title: "Keys", lines: helpLines(glyphs: glyphs), footer: "Esc closes", offset: 0, on: &screen, glyphs: glyphs)
        case .report(let report, let offset):
            box(title: report.mode == .dryRun ? "Dry run" : "Run", lines: reportLines(report, width: inner, glyphs: glyphs),
                footer: "\(glyphs.unicode ? "↑↓" : "Up/Down") scroll · Enter or Esc closes", offset: offset, on: &screen, glyphs: glyphs)
        case .whatsNew(let pages, let page):
            let title = "What's New in \(state.appName) \(state.plan?.target.version.text ?? "") \(glyphs.separator) \(page + 1) of \(pages.count)"
            let next = page + 1 < pages.count ? "Enter next" : "Enter done"
            box(title: title, lines: whatsNewLines(pages[page], width: inner, glyphs: glyphs),
                footer: "\(next) · \(glyphs.unicode ? "←" : "Left") back · Esc closes", offset: 0, on: &screen, glyphs: glyphs)
        case .confirm(let confirmation):
            let question = switch confirmation {
            case .reset: "Reset the recorded state of \(state.storeDescription)? Every record is forgotten."
            case .run where state.isSandbox:
                "Run the pending migrations' commands? The commands run for real and only the records are simulated (\(state.storeDescription))."
            case .run: "Run the pending migrations against the real store \(state.storeDescription)?"
            }
            var lines: [StyledLine] = []
            lines.appendWrapped(question, width: inner)
            lines += [StyledLine(""), StyledLine("y: yes    n, Enter or Esc: no", .accent)]
            box(title: "Are you sure?", lines: lines, footer: "no is the default", offset: 0, on: &screen, glyphs: glyphs)
        }
    }

    private static func helpLines(glyphs: Glyphs) -> [StyledLine] {
        let bindings = Keymap.bindings
        let width = bindings.map { $0.keysLabel.count }.max() ?? 0
        return bindings.map { binding in
            let keys = glyphs.unicode ? binding.keysLabel : binding.keys.map { $0.name(unicode: false) }.joined(separator: ", ")
            return StyledLine(keys.padding(toLength: max(width, keys.count), withPad: " ", startingAt: 0) + "  " + binding.help)
        } + [StyledLine(""), StyledLine("In overlays: Esc closes, ↑↓ scroll, ←→ page.", .dim)]
    }

    private static func reportLines(_ report: RunReport, width: Int, glyphs: Glyphs) -> [StyledLine] {
        var lines: [StyledLine] = []
        let header = report.mode == .dryRun
            ? "Would run, in this order (nothing was run or written):"
            : "Ran \(report.steps.count) step\(report.steps.count == 1 ? "" : "s"):"
        lines.append(StyledLine(report.steps.isEmpty ? "Nothing to do: every migration is applied or skipped." : header, .accent))
        for (index, step) in report.steps.enumerated() {
            let duration = report.mode == .dryRun ? "" : "  " + formatDuration(step.duration)
            lines.append(StyledLine("\(String(index + 1).leftPadded(to: 3)) \(glyphs.result(step.result)) \(step.result.word.padding(toLength: 9, withPad: " ", startingAt: 0)) \(step.subject.label)\(duration)", step.result.role))
            for line in step.log { lines.appendWrapped(line, width: width, indent: "       ", role: .dim) }
            if let error = step.result.errorMessage { lines.appendWrapped("error: \(error)", width: width, indent: "       ", role: .failed) }
        }
        if report.failure != nil {
            lines.append(StyledLine(""))
            lines.appendWrapped("The run stopped at the first failure: what ran before it stays recorded, the failed migration stays pending.", width: width, role: .failed)
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
    private static func box(title: String, lines: [StyledLine], footer: String, offset: Int, on screen: inout Screen, glyphs: Glyphs) {
        let width = min(screen.size.width - 4, max(40, min(78, (lines.map(\.text.count).max() ?? 0) + 4)))
        let height = min(screen.size.height - 2, lines.count + 2)
        let left = (screen.size.width - width) / 2
        let top = (screen.size.height - height) / 2
        let (horizontal, vertical, corners) = glyphs.unicode ? ("─", "│", ["┌", "┐", "└", "┘"]) : ("-", "|", ["+", "+", "+", "+"])
        let bar = String(repeating: horizontal, count: width - 2)
        screen.write(corners[0] + bar + corners[1], row: top, column: left, role: .accent)
        screen.write(" \(title) ", row: top, column: left + 2, role: .title, width: width - 4, ellipsis: glyphs.ellipsis)
        let visible = height - 2
        let start = min(offset, max(0, lines.count - visible))
        for row in 0..<(height - 2) {
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
        screen.write(" \(footer) ", row: top + height - 1, column: left + 2, role: .dim, width: width - 4 - more.count, ellipsis: glyphs.ellipsis)
        if !more.isEmpty { screen.write(more, row: top + height - 1, column: left + width - 2 - more.count, role: .dim) }
    }
}

extension String {
    func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: " ", count: length - count) + self
    }
}
