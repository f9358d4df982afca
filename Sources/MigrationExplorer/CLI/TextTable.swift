/// Columns padded to their widest cell, for plain-text reports. Cells are (text, role) so a
/// styled table still aligns: padding is measured on the text, not the escape codes.
struct TextTable {
    typealias Cell = (text: String, role: StyleRole)
    var rows: [[Cell]] = []

    mutating func add(_ row: [Cell]) { rows.append(row) }

    func render(_ style: ConsoleStyle, indent: String = "  ") -> [String] {
        let columns = rows.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in rows.map { column < $0.count ? $0[column].text.drawable.displayWidth : 0 }.max() ?? 0 }
        return rows.map { row in
            // Empty cells at the end are left out, so that no line ends in spaces.
            let row = row.prefix((row.lastIndex { !$0.text.isEmpty } ?? -1) + 1)
            let cells = row.enumerated().map { column, cell in
                let padding = column == row.count - 1 ? "" : String(repeating: " ", count: widths[column] - cell.text.drawable.displayWidth)
                return style.paint(cell.text, cell.role) + padding
            }
            return indent + cells.joined(separator: "  ")
        }
    }
}
