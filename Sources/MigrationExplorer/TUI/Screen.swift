/// A terminal's worth of styled cells: what the UI draws, as a value. Tests read it as text;
/// a ``Terminal`` puts it on the screen.
package struct Screen: Equatable, Sendable {
    package struct Cell: Equatable, Sendable {
        package var character: Character
        package var role: StyleRole
    }

    package let size: Size
    package private(set) var cells: [Cell]

    package init(size: Size) {
        self.size = size
        cells = Array(repeating: Cell(character: " ", role: .normal), count: size.width * size.height)
    }

    /// Writes `text` from (`row`, `column`), clipped at `width` cells (default: the edge),
    /// ending with `ellipsis` when it had to be cut.
    package mutating func write(
        _ text: String, row: Int, column: Int, role: StyleRole = .normal, width: Int? = nil, ellipsis: String = "…"
    ) {
        guard row >= 0, row < size.height, column < size.width else { return }
        let available = min(width ?? size.width - column, size.width - column)
        guard available > 0 else { return }
        var characters = Array(text)
        if characters.count > available {
            characters = Array(characters.prefix(max(0, available - ellipsis.count))) + Array(ellipsis)
            characters = Array(characters.prefix(available))
        }
        for (offset, character) in characters.enumerated() where column + offset >= 0 {
            cells[row * size.width + column + offset] = Cell(character: character, role: role)
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
            String(cells[row * size.width..<(row + 1) * size.width].map(\.character))
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
