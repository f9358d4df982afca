import MigrationCore

/// The upgrade matrix as a grid: a row per "from" (a fresh install, then each release), its
/// RUNS and NEW counts, then a column per version migration, a glyph per cell (runs, already
/// applied, out of order, above the app, failed when last run), so it reads without colour; a
/// legend under it. When the columns do not all fit, they scroll sideways (→/l, ←/h) while
/// FROM, RUNS and NEW stay.
enum MatrixView {
    /// The row a matrix opens on: the device the explorer simulates, else the fresh install.
    static func row(of from: Version?, in matrix: UpgradeMatrix) -> Int {
        matrix.rows.firstIndex { $0.from == from } ?? 0
    }

    /// The line of row `index` in ``lines(_:selection:firstColumn:width:glyphs:)``.
    static func line(ofRow index: Int) -> Int { index + 1 }

    /// The first column shown when the matrix is scrolled as far right as it goes in `width`.
    static func lastFirstColumn(_ matrix: UpgradeMatrix, width: Int) -> Int {
        let grid = Grid(matrix)
        var first = grid.columns.count
        while first > 0, grid.fixedWidth + grid.columns[(first - 1)...].reduce(0, +) <= width { first -= 1 }
        return min(first, max(0, grid.columns.count - 1))
    }

    /// The lines of the matrix in at most `width` columns, its migration columns shown from
    /// `firstColumn`.
    ///
    /// ```swift
    /// let lines = MatrixView.lines(matrix, selection: 0, firstColumn: 2, width: 52, glyphs: Glyphs(unicode: true))
    /// ```
    static func lines(_ matrix: UpgradeMatrix, selection: Int, firstColumn: Int, width: Int, glyphs: Glyphs) -> [StyledLine] {
        let grid = Grid(matrix)
        let count = grid.columns.count
        let first = max(0, min(firstColumn, lastFirstColumn(matrix, width: width)))
        // As many columns as fit, one cell kept for the mark saying more follow.
        var end = first
        while end < count, grid.fixedWidth + grid.columns[first...end].reduce(0, +) + (end + 1 < count ? 1 : 0) <= width { end += 1 }
        if end == first, first < count { end = first + 1 }
        let shown = first..<end
        let (left, right) = glyphs.unicode ? ("‹", "›") : ("<", ">")
        func cells(_ texts: [String]) -> String {
            zip(texts[shown], grid.columns[shown]).map { padded($0, $1) }.joined()
        }
        let header = "  " + padded("FROM", grid.labelWidth) + "RUNS  NEW" + padded(first > 0 ? " " + left : "", Grid.gap)
            + cells(matrix.migrations.map(\.declared)) + (end < count ? right : "")
        var lines = [StyledLine(header, .dim)]
        for (index, row) in matrix.rows.enumerated() {
            let marker = index == selection ? (glyphs.unicode ? "▶ " : "> ") : "  "
            let counts = String(row.runs.count).leftPadded(to: 4) + "  " + String(row.plan.whatsNew.count).leftPadded(to: 3)
            let text = marker + padded(grid.labels[index], grid.labelWidth) + counts + padded("", Grid.gap)
                + cells(matrix.migrations.map { glyph(row, $0, glyphs: glyphs) })
            lines.append(StyledLine(text, index == selection ? .selection : row.outOfOrder.isEmpty ? .normal : .warning))
        }
        let legend = [
            "\(glyphs.status(.pending)) runs  \(glyphs.status(.applied)) already applied  "
                + "\(glyphs.status(.skipped(.aboveAppVersion))) above the app  \(glyphs.status(.failed)) runs, failed last time",
            "\(glyphs.warning) out of order: the device is past it, so it never runs",
        ] + (shown.count < count ? ["\(left)\(right) more columns: \(glyphs.unicode ? "←/→" : "Left/Right") or h/l"] : [])
        // Rows as wide as the box, so the selection bar spans it.
        let boxWidth = min(width, ([header] + legend).map(\.displayWidth).max() ?? 0)
        for index in lines.indices.dropFirst() { lines[index].text = padded(lines[index].text, boxWidth) }
        lines.append(StyledLine(""))
        for line in legend { lines.appendWrapped(line, width: width, role: .dim) }
        if matrix.rows.count == 1 {
            lines.appendWrapped("No shipped release below \(matrix.target.version.text): add \"releases\" to the manifest (or registry.releases) to see each one's upgrade.",
                                width: min(width, 70), role: .dim)
        }
        return lines
    }

    /// The widths of the matrix's parts.
    private struct Grid {
        /// Spaces between the counts and the first migration column.
        static let gap = 2
        let labels: [String]
        let labelWidth: Int
        /// Each migration column's width, its gap after it included.
        let columns: [Int]
        /// The marker, FROM, RUNS and NEW, and the gap after them.
        var fixedWidth: Int { 2 + labelWidth + "RUNS  NEW".count + Self.gap }

        init(_ matrix: UpgradeMatrix) {
            labels = matrix.rows.map { $0.from?.text ?? "fresh install" }
            labelWidth = max(13, labels.map(\.displayWidth).max() ?? 0) + 2
            columns = matrix.migrations.map { max(3, $0.declared.displayWidth) + 1 }
        }
    }

    private static func padded(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.displayWidth))
    }

    private static func glyph(_ row: UpgradeMatrix.Row, _ migration: RegisteredMigration, glyphs: Glyphs) -> String {
        guard let status = row.status(of: migration) else { return "" }
        if row.failedLastRun(migration) { return glyphs.status(.failed) }
        if status == .skipped(.outOfOrder) { return glyphs.warning }
        return glyphs.status(status)
    }
}
