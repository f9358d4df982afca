/// A terminal's worth of styled cells: what the UI draws, as a value. Tests read it as text;
/// a ``Terminal`` puts it on the screen.
package struct Screen: Equatable, Sendable {
    package struct Cell: Equatable, Sendable {
        package var character: Character
        package var role: StyleRole
        /// A cell covered by the wide character drawn in a cell before it: nothing to draw.
        package var isWideTail = false
    }

    package let size: Size
    package private(set) var cells: [Cell]

    package init(size: Size) {
        self.size = size
        cells = Array(repeating: Cell(character: " ", role: .normal), count: size.width * size.height)
    }

    /// Writes `text` from (`row`, `column`), clipped at `width` cells (default: the edge),
    /// ending with `ellipsis` when it had to be cut. Each cell holds a whole grapheme
    /// cluster; wide ones take two cells; control characters show as U+FFFD.
    package mutating func write(
        _ text: String, row: Int, column: Int, role: StyleRole = .normal, width: Int? = nil, ellipsis: String = "…"
    ) {
        guard row >= 0, row < size.height, column >= 0, column < size.width else { return }
        let available = min(width ?? size.width - column, size.width - column)
        guard available > 0 else { return }
        var offset = 0
        for character in text.drawable.cut(toWidth: available, ellipsis: ellipsis) {
            let cells = character.displayWidth
            guard offset + cells <= available else { break }
            let index = row * size.width + column + offset
            self.cells[index] = Cell(character: character, role: role)
            for tail in 1..<max(1, cells) { self.cells[index + tail] = Cell(character: " ", role: role, isWideTail: true) }
            offset += cells
        }
    }

    /// Gives every cell of a row segment `role` (a selection bar, a title bar).
    package mutating func fill(row: Int, column: Int = 0, width: Int? = nil, role: StyleRole) {
        guard row >= 0, row < size.height else { return }
        let end = min(size.width, column + (width ?? size.width))
        for index in max(0, column)..<max(max(0, column), end) { cells[row * size.width + index].role = role }
    }

    package func cell(row: Int, column: Int) -> Cell { cells[row * size.width + column] }

    /// The screen as lines of text, trailing blanks kept, for golden files.
    package var text: String {
        (0..<size.height).map { row in
            String(cells[row * size.width..<(row + 1) * size.width].filter { !$0.isWideTail }.map(\.character))
        }.joined(separator: "\n")
    }
}

/// A terminal size in cells.
package struct Size: Equatable, Sendable {
    package var width: Int
    package var height: Int

    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}
