import MigrationCore

/// Draws a ``ViewState`` into a ``Screen`` of a given size. Pure, and it draws only the rows
/// that show, so a registry of 100,000 migrations renders as fast as one of ten.
package enum Render {
    package static func screen(_ state: ViewState, size: Size, unicode: Bool) -> Screen {
        var screen = Screen(size: size)
        let glyphs = Glyphs(unicode: unicode)
        let layout = Layout(size)
        if layout.isTooSmall {
            let notice = "terminal too small (need \(Layout.minimum.width)×\(Layout.minimum.height))"
            let text = unicode ? notice : notice.replacingOccurrences(of: "×", with: "x")
            for (index, line) in wrap(text, width: size.width).enumerated() { screen.write(line, row: index, column: 0, role: .warning) }
            return screen
        }
        header(state, &screen, glyphs: glyphs)
        table(state, &screen, layout: layout, glyphs: glyphs)
        details(state, &screen, layout: layout, glyphs: glyphs)
        messageLine(state, &screen, layout: layout, glyphs: glyphs)
        footer(&screen, layout: layout, glyphs: glyphs)
        if let overlay = state.overlay { Overlays.draw(overlay, state: state, on: &screen, glyphs: glyphs) }
        return screen
    }

    private static func header(_ state: ViewState, _ screen: inout Screen, glyphs: Glyphs) {
        let width = screen.size.width
        screen.fill(row: 0, role: .title)
        let store = state.isSandbox ? "store: \(state.storeDescription)" : "REAL STORE: \(state.storeDescription)"
        let upgrade = state.plan.map { upgradeSummary(app: state.appName, plan: $0, glyphs: glyphs) } ?? state.appName
        let storeWidth = min(store.displayWidth, width / 2)
        screen.write(" " + upgrade, row: 0, column: 0, role: .title, width: max(0, width - storeWidth - 3), ellipsis: glyphs.ellipsis)
        screen.write(store + " ", row: 0, column: max(0, width - storeWidth - 1), role: .title, ellipsis: glyphs.ellipsis)
        guard let plan = state.plan else {
            screen.write(" " + (state.planError ?? ""), row: 1, column: 0, role: .failed, ellipsis: glyphs.ellipsis)
            return
        }
        var parts = ["pending", "failed", "applied", "skipped"].compactMap { word in state.statusCounts[word].map { "\($0) \(word)" } }
        parts.append("\(plan.firingHookCount) of \(plan.hooks.count) hooks fire")
        let warnings = plan.problems.count
        if warnings > 0 { parts.append("\(warnings) problem\(warnings == 1 ? "" : "s")") }
        let position = state.items.isEmpty ? "0 of 0" : "\(state.selection + 1) of \(state.items.count)"
        screen.write(" " + parts.joined(separator: " \(glyphs.separator) "), row: 1, column: 0, role: .dim,
                     width: width - position.count - 2, ellipsis: glyphs.ellipsis)
        screen.write(position + " ", row: 1, column: width - position.count - 1, role: .dim)
    }

    /// Column widths of the table: marker, status, run order, version, title.
    private static let statusWidth = 20, orderWidth = 2, versionWidth = 13

    private static func table(_ state: ViewState, _ screen: inout Screen, layout: Layout, glyphs: Glyphs) {
        let top = layout.bodyTop
        let width = layout.tableWidth
        let titleColumn = 2 + statusWidth + 1 + orderWidth + 1 + versionWidth + 1
        screen.write("  STATUS", row: top, column: 0, role: .dim)
        screen.write("#", row: top, column: 2 + statusWidth + 1 + orderWidth - 1, role: .dim)
        screen.write("VERSION", row: top, column: 2 + statusWidth + 1 + orderWidth + 1, role: .dim)
        screen.write("TITLE", row: top, column: titleColumn, role: .dim, width: width - titleColumn)
        guard !state.items.isEmpty else {
            let empty = state.filter.isEmpty ? "No migrations registered." : "Nothing matches \"\(state.filter)\" (Esc clears the filter)."
            screen.write("  " + empty, row: top + 1, column: 0, role: .dim, width: width)
            return
        }
        let end = min(state.items.count, state.tableTop + layout.visibleRows)
        for index in state.tableTop..<max(state.tableTop, end) {
            let row = top + 1 + index - state.tableTop
            let selected = index == state.selection
            switch state.items[index] {
            case .migration(let entry):
                let status = "\(glyphs.status(entry.status)) \(shortPhrase(entry.status))"
                screen.write(status, row: row, column: 2, role: entry.status.role, width: statusWidth)
                if let position = state.runPosition[entry.migration.id] {
                    let text = String(position)
                    screen.write(text, row: row, column: 2 + statusWidth + 1 + orderWidth - text.count, role: .pending)
                }
                screen.write(entry.migration.trackAndVersion, row: row, column: 2 + statusWidth + 1 + orderWidth + 1,
                             width: versionWidth, ellipsis: glyphs.ellipsis)
                screen.write(entry.migration.title, row: row, column: titleColumn, width: width - titleColumn - 1, ellipsis: glyphs.ellipsis)
            case .hook(let hookPlan):
                let status = "\(glyphs.hook(fires: hookPlan.fires)) \(hookPlan.fires ? "fires" : "does not fire")"
                screen.write(status, row: row, column: 2, role: hookPlan.fires ? .hook : .dim, width: statusWidth)
                screen.write(hookPlan.hook.kind, row: row, column: 2 + statusWidth + 1 + orderWidth + 1, width: versionWidth + 1)
                screen.write(hookPlan.hook.title, row: row, column: titleColumn, width: width - titleColumn - 1, ellipsis: glyphs.ellipsis)
            }
            if selected {
                screen.write(glyphs.unicode ? "▶" : ">", row: row, column: 0, role: .selection)
                screen.fill(row: row, column: 0, width: width, role: state.focus == .table ? .selection : .accent)
            }
        }
    }

    private static func shortPhrase(_ status: MigrationStatus) -> String {
        guard case .skipped(let reason) = status else { return status.word }
        switch reason {
        case .aboveAppVersion: return "skipped: above app"
        case .outOfOrder: return "skipped: out of order"
        case .invalidVersion: return "skipped: invalid"
        case .duplicate: return "skipped: duplicate"
        }
    }

    private static func details(_ state: ViewState, _ screen: inout Screen, layout: Layout, glyphs: Glyphs) {
        if layout.isWide {
            for row in layout.bodyTop..<(layout.bodyTop + layout.bodyHeight) {
                screen.write(glyphs.unicode ? "│" : "|", row: row, column: layout.tableWidth, role: .dim)
            }
        } else {
            let rule = glyphs.unicode ? "─" : "-"
            let label = state.focus == .details ? " details (Tab: back to the table) " : " details "
            screen.write(String(repeating: rule, count: 2) + label + String(repeating: rule, count: max(0, screen.size.width - label.count - 2)),
                         row: layout.detailsTop - 1, column: 0, role: state.focus == .details ? .accent : .dim)
        }
        let lines = DetailsText.lines(for: state.selectedItem, state: state, width: layout.detailsWidth, glyphs: glyphs)
        let offset = min(state.detailsOffset, max(0, lines.count - 1))
        for (index, line) in lines.dropFirst(offset).prefix(layout.detailsTextHeight).enumerated() {
            screen.write(line.text, row: layout.detailsTop + index, column: layout.detailsLeft, role: line.role,
                         width: layout.detailsWidth, ellipsis: glyphs.ellipsis)
        }
    }

    private static func messageLine(_ state: ViewState, _ screen: inout Screen, layout: Layout, glyphs: Glyphs) {
        let row = layout.messageRow
        if let prompt = state.prompt {
            let label = prompt.kind == .from ? "From version (empty: fresh install): " : "App version: "
            screen.write(label + prompt.text + "_", row: row, column: 1, role: .accent)
            if let error = prompt.error {
                screen.write(error, row: row, column: label.count + prompt.text.count + 4, role: .failed, ellipsis: glyphs.ellipsis)
            }
        } else if state.isEditingFilter {
            screen.write("/" + state.filter + "_", row: row, column: 1, role: .accent)
        } else if let running = state.running {
            screen.write("running\(glyphs.ellipsis) \(running.count) of \(state.plan?.pending.count ?? 0) done", row: row, column: 1, role: .pending)
        } else if let message = state.message {
            screen.write(message.text, row: row, column: 1, role: message.role, ellipsis: glyphs.ellipsis)
        } else if !state.filter.isEmpty {
            screen.write("filter: \(state.filter) (\(state.items.count) shown; Esc clears)", row: row, column: 1, role: .dim)
        }
    }

    private static func footer(_ screen: inout Screen, layout: Layout, glyphs: Glyphs) {
        let hints = Keymap.bindings.compactMap { binding in binding.hint.map { "\(binding.keys[0].name(unicode: glyphs.unicode)) \($0)" } }
        screen.write(" " + hints.joined(separator: "  "), row: layout.footerRow, column: 0, role: .dim, ellipsis: glyphs.ellipsis)
    }
}
