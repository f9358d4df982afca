/// How one drawn grapheme cluster goes into a curses screen, whose cells hold a spacing
/// character and at most four zero-width ones, measured by the C library's `wcwidth`.
///
/// The whole cluster goes into one cell when it fits and `wcwidth` of its first scalar is the
/// width the ``Screen`` gave it: the terminal then receives the whole sequence and joins it
/// (an accented letter, a skin tone, a ZWJ emoji). Otherwise (a flag, whose halves `wcwidth`
/// counts one each, or a family emoji too long for a cell) its visible parts go into cells of
/// their own, joiners and variation selectors dropped, as many as fit in the width, and the
/// rest is padded with spaces: columns never shift and nothing stray is left behind.
///
/// ```swift
/// TerminalCells.split("🇫🇷", width: 2, measure: { Int(wcwidth(wchar_t($0.value))) })   // [["🇫"], ["🇷"]]
/// ```
enum TerminalCells {
    static func split(_ character: Character, width: Int, measure: (Unicode.Scalar) -> Int) -> [[Unicode.Scalar]] {
        let scalars = Array(character.unicodeScalars)
        guard let first = scalars.first else { return [] }
        if scalars.count <= Character.scalarsPerCell, measure(first) == width { return [scalars] }
        var cells: [[Unicode.Scalar]] = []
        var used = 0
        for scalar in scalars {
            let cellWidth = measure(scalar)
            if cellWidth > 0 {
                guard used + cellWidth <= width else { break }
                cells.append([scalar])
                used += cellWidth
            } else if cellWidth == 0, !isJoinerOrSelector(scalar), let last = cells.indices.last,
                      cells[last].count < Character.scalarsPerCell {
                cells[last].append(scalar)
            }
        }
        return cells + Array(repeating: [" "], count: max(0, width - used))
    }

    private static func isJoinerOrSelector(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "\u{200D}" || (0xFE00...0xFE0F).contains(scalar.value) || (0xE0100...0xE01EF).contains(scalar.value)
    }
}
