import MigrationCore

/// The rows above the table: the upgrade and the store; the status counts, the problems and
/// the position (or why there is no plan); and a downgrade, when there is one.
enum Header {
    /// Rows the header takes: a third one names a downgrade.
    static func height(_ state: ViewState) -> Int { downgrade(state) == nil ? 2 : 3 }

    static func draw(_ state: ViewState, on screen: inout Screen, glyphs: Glyphs) {
        let width = screen.size.width
        screen.fill(row: 0, role: .title)
        let upgrade = state.plan.map { upgradeSummary(app: state.appName, plan: $0, glyphs: glyphs) }
            ?? upgradeSummary(app: state.appName, from: "unknown", fromBuild: "unknown", target: state.target, glyphs: glyphs)
        // The upgrade comes first; a long store path keeps its end (the file's name).
        let store = keepingEnd(of: state.storeDescription, after: state.isSandbox ? "store: " : "REAL STORE: ",
                               width: max(width / 3, width - upgrade.displayWidth - 4), ellipsis: glyphs.ellipsis)
        let storeWidth = min(store.displayWidth, width / 2)
        screen.write(" " + upgrade, row: 0, column: 0, role: .title, width: max(0, width - storeWidth - 3), ellipsis: glyphs.ellipsis)
        screen.write(store + " ", row: 0, column: max(0, width - storeWidth - 1), role: .title, ellipsis: glyphs.ellipsis)

        let position = state.items.isEmpty ? "0 of 0" : "\(state.selection + 1) of \(state.items.count)"
        screen.write(position + " ", row: 1, column: width - position.count - 1, role: .dim)
        let room = width - position.count - 2
        guard let plan = state.plan else {
            let text = "\(glyphs.status(.failed)) no plan: every status is unknown (the details say why)"
            screen.write(" " + text, row: 1, column: 0, role: .failed, width: room, ellipsis: glyphs.ellipsis)
            return
        }
        var parts = ["pending", "failed", "applied", "skipped"].compactMap { word in state.statusCounts[word].map { "\($0) \(word)" } }
        let problems = state.problems.count
        if problems > 0 { parts.append("\(problems) problem\(problems == 1 ? "" : "s") (p)") }
        parts.append("\(plan.firingHookCount) of \(plan.hooks.count) hooks fire")
        screen.write(" " + parts.joined(separator: " \(glyphs.separator) "), row: 1, column: 0, role: .dim, width: room, ellipsis: glyphs.ellipsis)
        if let downgrade = downgrade(state) {
            screen.write(" \(glyphs.warning) \(downgrade)", row: 2, column: 0, role: .warning, ellipsis: glyphs.ellipsis)
        }
    }

    /// `label` and `text`, the start of `text` cut to fit in `width`.
    private static func keepingEnd(of text: String, after label: String, width: Int, ellipsis: String) -> String {
        guard (label + text).displayWidth > width else { return label + text }
        var end = Substring(text)
        while !end.isEmpty, (label + ellipsis + end).displayWidth > width { end = end.dropFirst() }
        return label + ellipsis + end
    }

    private static func downgrade(_ state: ViewState) -> String? {
        guard let downgrades = state.plan?.downgrades, !downgrades.isEmpty else { return nil }
        return "Downgrade: " + downgrades.map { "recorded \($0.track) \($0.recorded.text) > app \($0.app.text)" }
            .joined(separator: ", ") + "; nothing runs backwards (p)"
    }
}
