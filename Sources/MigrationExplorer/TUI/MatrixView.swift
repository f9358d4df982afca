import MigrationCore

/// The upgrade matrix as a grid: a row per "from" (a fresh install, then each release), a
/// column per version migration, a glyph per cell (runs, already applied, out of order, above
/// the app, failed when last run), so it reads without colour; a legend under it.
enum MatrixView {
    /// The row a matrix opens on: the device the explorer simulates, else the fresh install.
    static func row(of from: Version?, in matrix: UpgradeMatrix) -> Int {
        matrix.rows.firstIndex { $0.from == from } ?? 0
    }

    /// The line of row `index` in ``lines(_:selection:glyphs:)``.
    static func line(ofRow index: Int) -> Int { index + 1 }

    static func lines(_ matrix: UpgradeMatrix, selection: Int, glyphs: Glyphs) -> [StyledLine] {
        let labels = matrix.rows.map { $0.from?.text ?? "fresh install" }
        let labelWidth = max(13, labels.map(\.displayWidth).max() ?? 0) + 2
        let columns = matrix.migrations.map { max(3, $0.declared.displayWidth) + 1 }
        func padded(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.displayWidth)) }
        var header = "  " + padded("FROM", labelWidth)
        for (migration, width) in zip(matrix.migrations, columns) { header += padded(migration.declared, width) }
        var lines = [StyledLine(header + " RUNS  NEW", .dim)]
        for (index, row) in matrix.rows.enumerated() {
            let marker = index == selection ? (glyphs.unicode ? "▶ " : "> ") : "  "
            var text = marker + padded(labels[index], labelWidth)
            for (migration, width) in zip(matrix.migrations, columns) {
                text += padded(glyph(row, migration, glyphs: glyphs), width)
            }
            text += " " + String(row.runs.count).leftPadded(to: 4) + "  " + String(row.plan.whatsNew.count).leftPadded(to: 3)
            lines.append(StyledLine(text, index == selection ? .selection : row.outOfOrder.isEmpty ? .normal : .warning))
        }
        let legend = [
            "\(glyphs.status(.pending)) runs  \(glyphs.status(.applied)) already applied  "
                + "\(glyphs.status(.skipped(.aboveAppVersion))) above the app  \(glyphs.status(.failed)) runs, failed last time",
            "\(glyphs.warning) out of order: the device is past it, so it never runs",
        ]
        // Rows as wide as the box, so the selection bar spans it.
        let width = ([header] + legend).map(\.displayWidth).max() ?? 0
        for index in lines.indices.dropFirst() { lines[index].text = padded(lines[index].text, width) }
        lines.append(StyledLine(""))
        lines += legend.map { StyledLine($0, .dim) }
        if matrix.rows.count == 1 {
            lines.appendWrapped("No shipped release below \(matrix.target.version.text): add \"releases\" to the manifest (or registry.releases) to see each one's upgrade.",
                                width: 70, role: .dim)
        }
        return lines
    }

    private static func glyph(_ row: UpgradeMatrix.Row, _ migration: RegisteredMigration, glyphs: Glyphs) -> String {
        guard let status = row.status(of: migration) else { return "" }
        if row.failedLastRun(migration) { return glyphs.status(.failed) }
        if status == .skipped(.outOfOrder) { return glyphs.warning }
        return glyphs.status(status)
    }
}
