import MigrationCore

/// The rows above the table: the upgrade and the store; the status counts, the problems and
/// the position (or why there is no plan); a downgrade, when there is one; and why the plan
/// is out of date, while the manifest as saved cannot be used.
enum Header {
    /// Rows the header takes: one more names a downgrade, and one more the manifest's problem.
    static func height(_ state: ViewState) -> Int { 2 + (downgrade(state) == nil ? 0 : 1) + (state.manifestProblem == nil ? 0 : 1) }

    static func draw(_ state: ViewState, on screen: inout Screen, glyphs: Glyphs) {
        let width = screen.size.width
        screen.fill(row: 0, role: .title)
        // Until the store first answers, the device it records is not known yet.
        let unknown = state.isReading ? glyphs.ellipsis : "unknown"
        func summary(compact: Bool) -> String {
            state.plan.map { upgradeSummary(app: state.appName, plan: $0, glyphs: glyphs, compact: compact) }
                ?? upgradeSummary(app: state.appName, from: unknown, fromBuild: unknown, target: state.target, glyphs: glyphs, compact: compact)
        }
        // The upgrade comes first, its builds beside their versions when only that way it fits
        // whole; a long store path keeps its end (the file's name), and the words that say
        // whether runs are real stay whole.
        let label = state.isSandbox ? "store: " : state.unwritableStore == nil ? "REAL STORE: " : "READ-ONLY STORE: "
        func storeText(besides upgrade: String) -> String {
            cuttingPath(of: state.storeLabel, after: label, width: max(width / 3, width - upgrade.displayWidth - 4), ellipsis: glyphs.ellipsis)
        }
        var upgrade = summary(compact: false)
        var store = storeText(besides: upgrade)
        let compact = summary(compact: true)
        if upgrade.displayWidth + store.displayWidth + 4 > width, compact.displayWidth + storeText(besides: compact).displayWidth + 4 <= width {
            upgrade = compact
            store = storeText(besides: compact)
        }
        let storeWidth = min(store.displayWidth, width - 2)
        screen.write(" " + upgrade, row: 0, column: 0, role: .title, width: max(0, width - storeWidth - 3), ellipsis: glyphs.ellipsis)
        screen.write(store + " ", row: 0, column: max(0, width - storeWidth - 1), role: .title, ellipsis: glyphs.ellipsis)

        let position = state.items.isEmpty ? "0 of 0" : "\(state.selection + 1) of \(state.items.count)"
        screen.write(position + " ", row: 1, column: width - position.count - 1, role: .dim)
        let room = width - position.count - 2
        if let problem = state.manifestProblem {
            // The plan stays the last good manifest's: said under it, whatever it shows.
            let row = downgrade(state) == nil ? 2 : 3
            screen.write(" \(glyphs.warning) out of date: \(problem)", row: row, column: 0, role: .warning, ellipsis: glyphs.ellipsis)
        }
        guard let plan = state.plan else {
            if state.isReading { return }
            let text = "\(glyphs.status(.failed)) no plan: every status is unknown (the details say why)"
            screen.write(" " + text, row: 1, column: 0, role: .failed, width: room, ellipsis: glyphs.ellipsis)
            return
        }
        var parts = ["pending", "failed", "applied", "skipped"].compactMap { word in state.statusCounts[word].map { "\($0) \(word)" } }
        let problems = state.problems.count
        if problems > 0 { parts.append("\(problems.counting("problem")) (p)") }
        parts.append(HookCount.phrase(firing: plan.firingHookCount, of: plan.hooks.count))
        screen.write(" " + parts.joined(separator: " \(glyphs.separator) "), row: 1, column: 0, role: .dim, width: room, ellipsis: glyphs.ellipsis)
        if let downgrade = downgrade(state) {
            screen.write(" \(glyphs.warning) \(downgrade)", row: 2, column: 0, role: .warning, ellipsis: glyphs.ellipsis)
        }
    }

    /// `label` and the store's words and path, the start of the path cut to fit in `width`:
    /// its file name stays, and so do the words around it (a sandbox's "store: " label goes
    /// first when even that is too wide).
    static func cuttingPath(of store: StoreLabel, after label: String, width: Int, ellipsis: String) -> String {
        let whole = label + store.text
        guard whole.displayWidth > width else { return whole }
        let name = Substring(store.path.split(separator: "/").last ?? "")
        let shortest = label + store.before + (name.count < store.path.count ? ellipsis : "") + name + store.after
        if shortest.displayWidth > width, label == "store: " {
            return cuttingPath(of: store, after: "", width: width, ellipsis: ellipsis)
        }
        var end = Substring(store.path)
        while end.count > name.count, (label + store.before + ellipsis + end + store.after).displayWidth > width { end = end.dropFirst() }
        return label + store.before + (end.count < store.path.count ? ellipsis : "") + end + store.after
    }

    private static func downgrade(_ state: ViewState) -> String? {
        guard let downgrades = state.plan?.downgrades, !downgrades.isEmpty else { return nil }
        return "Downgrade: " + downgrades.map { "recorded \($0.track) \($0.recorded.text) > app \($0.app.text)" }
            .joined(separator: ", ") + "; nothing runs backwards (p)"
    }
}
