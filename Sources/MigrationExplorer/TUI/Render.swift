import MigrationCore

/// Draws a ``ViewState`` into a ``Screen`` of a given size. Pure, and it draws only the rows
/// that show, so a registry of 100,000 migrations renders as fast as one of ten.
package enum Render {
    package static func screen(_ state: ViewState, size: Size, unicode: Bool) -> Screen {
        var screen = Screen(size: size)
        let glyphs = Glyphs(unicode: unicode)
        let layout = Layout(size, for: state, unicode: unicode)
        // Under the notice only quitting and redrawing act, and stopping a run (see ``Update``).
        if layout.isTooSmall {
            let keys = state.runPhase.map { $0.footer(cancelled: state.activity?.cancelled == true) } ?? "q quits"
            return tooSmall(size, unicode: unicode, keys: keys)
        }
        Header.draw(state, on: &screen, glyphs: glyphs)
        table(state, &screen, layout: layout, glyphs: glyphs)
        details(state, &screen, layout: layout, glyphs: glyphs)
        messageArea(state, &screen, layout: layout, glyphs: glyphs)
        Footer.draw(state, on: &screen, row: layout.footerRow, glyphs: glyphs)
        if let overlay = state.overlay { Overlays.draw(overlay, state: state, on: &screen, glyphs: glyphs) }
        return screen
    }

    /// What shows below ``Layout/minimum`` instead of the screen: the size needed, and `keys`,
    /// the keys that act meanwhile (a run has its own).
    static func tooSmall(_ size: Size, unicode: Bool, keys: String) -> Screen {
        var screen = Screen(size: size)
        let notice = "terminal too small (need \(Layout.minimum.width)×\(Layout.minimum.height)); \(keys)"
        let text = unicode ? notice : notice.replacingOccurrences(of: "×", with: "x")
        for (index, line) in wrap(text, width: size.width).enumerated() { screen.write(line, row: index, column: 0, role: .warning) }
        return screen
    }

    /// Column widths of the table besides the status (see ``StatusColumn``): run order, version.
    private static let orderWidth = 2, versionWidth = 13

    private static func table(_ state: ViewState, _ screen: inout Screen, layout: Layout, glyphs: Glyphs) {
        let top = layout.bodyTop
        let width = layout.tableWidth
        let statusColumn = StatusColumn(widths: state.tableWidths, tableWidth: width)
        let versionColumn = 2 + statusColumn.width + 1 + orderWidth + 1
        let titleColumn = versionColumn + versionWidth + 1
        screen.write("  STATUS", row: top, column: 0, role: .dim)
        screen.write("#", row: top, column: versionColumn - 2, role: .dim)
        screen.write("VERSION", row: top, column: versionColumn, role: .dim)
        screen.write("TITLE", row: top, column: titleColumn, role: .dim, width: width - titleColumn)
        // Until the store first answers, the rows' place says that it is being read.
        if state.isReading {
            screen.write("  reading \(state.storeDescription)\(glyphs.ellipsis)", row: top + 1, column: 0, role: .dim, width: width, ellipsis: glyphs.ellipsis)
            return
        }
        guard !state.items.isEmpty else {
            let empty = state.filter.isEmpty ? "No migrations registered." : "Nothing matches \"\(state.filter)\" (Esc clears the filter)."
            screen.write("  " + empty, row: top + 1, column: 0, role: .dim, width: width)
            return
        }
        let first = max(0, min(state.tableTop, state.items.count - 1))
        let end = min(state.items.count, first + layout.visibleRows)
        for index in first..<end {
            let row = top + 1 + index - first
            var (status, role): (String, StyleRole)
            let version: String, title: String
            switch state.items[index] {
            case .migration(let entry):
                let held = state.heldByInterruptions.contains(entry.migration.id)
                (status, role) = ("\(glyphs.status(entry.status)) \(state.items[index].statusPhrase(compact: statusColumn.compact, held: held))",
                                  held ? .failed : entry.status.role)
                (version, title) = (entry.migration.trackAndVersion, entry.migration.title)
                if let position = state.runPosition[entry.migration.id], !held {
                    let text = String(position)
                    screen.write(text, row: row, column: versionColumn - 1 - text.count, role: .pending)
                }
            case .hook(let hookPlan):
                (status, role) = ("\(glyphs.hook(fires: hookPlan.fires)) \(state.items[index].statusPhrase(compact: false))", hookPlan.fires ? .hook : .dim)
                (version, title) = (hookPlan.hook.kind, hookPlan.hook.title)
            case .unplanned(let migration):
                (status, role) = ("\(glyphs.unknown) unknown", .warning)
                (version, title) = (migration.trackAndVersion, migration.title)
            }
            if let live = state.liveStatus(of: state.items[index], glyphs: glyphs) { (status, role) = live }
            screen.write(status, row: row, column: 2, role: role, width: statusColumn.width)
            screen.write(version, row: row, column: versionColumn, width: versionWidth + 1, ellipsis: glyphs.ellipsis)
            screen.write(title, row: row, column: titleColumn, width: width - titleColumn - 1, ellipsis: glyphs.ellipsis)
            if index == state.selection {
                screen.write(glyphs.unicode ? "▶" : ">", row: row, column: 0, role: .selection)
                screen.fill(row: row, column: 0, width: width, role: state.focus == .table ? .selection : .accent)
            }
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
        let lines = DetailsText.lines(for: state, width: layout.detailsWidth, glyphs: glyphs)
        let offset = max(0, min(state.detailsOffset, lines.count - 1))
        for (index, line) in lines.dropFirst(offset).prefix(layout.detailsTextHeight).enumerated() {
            screen.write(line.text, row: layout.detailsTop + index, column: layout.detailsLeft, role: line.role,
                         width: layout.detailsWidth, ellipsis: glyphs.ellipsis)
        }
    }

    private static func messageArea(_ state: ViewState, _ screen: inout Screen, layout: Layout, glyphs: Glyphs) {
        let area = MessageArea(state, width: screen.size.width, glyphs: glyphs)
        for (index, line) in area.lines.prefix(layout.messageHeight).enumerated() {
            screen.write(line.text, row: layout.messageRow + index, column: MessageArea.indent, role: line.role,
                         width: screen.size.width - MessageArea.indent - 1, ellipsis: glyphs.ellipsis)
        }
        if let selected = area.selectedColumns { screen.fill(row: layout.messageRow, column: selected.lowerBound, width: selected.count, role: .selection) }
        if let cursor = area.cursorColumn { screen.fill(row: layout.messageRow, column: cursor, width: 1, role: .selection) }
    }
}
