/// Breaks `text` into lines of at most `width` cells, at spaces where it can. Leading spaces
/// (an indent) are kept.
func wrap(_ text: String, width: Int) -> [String] {
    guard width > 0 else { return [] }
    var lines: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
        var line = ""
        var lineWidth = 0
        // Whether the line has begun, so that an empty word (a second space) is kept.
        var started = false
        for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
            var word = Substring(word)
            var wordWidth = word.displayWidth
            while wordWidth > width {
                if started { lines.append(line); line = ""; lineWidth = 0; started = false }
                var piece = ""
                var pieceWidth = 0
                while let next = word.first, pieceWidth + next.displayWidth <= width {
                    piece.append(next)
                    pieceWidth += next.displayWidth
                    word = word.dropFirst()
                }
                if piece.isEmpty, let next = word.first {
                    piece = String(next)
                    pieceWidth = next.displayWidth
                    word = word.dropFirst()
                }
                lines.append(piece)
                wordWidth -= pieceWidth
            }
            if !started {
                (line, lineWidth, started) = (String(word), wordWidth, true)
            } else if lineWidth + 1 + wordWidth <= width {
                line += " " + word
                lineWidth += 1 + wordWidth
            } else {
                lines.append(line)
                (line, lineWidth) = (String(word), wordWidth)
            }
        }
        lines.append(line)
    }
    return lines
}

/// A line of styled text for panes and overlays.
struct StyledLine {
    var text: String
    var role: StyleRole = .normal

    init(_ text: String, _ role: StyleRole = .normal) {
        self.text = text
        self.role = role
    }
}

extension Array where Element == StyledLine {
    /// Appends `text` wrapped to `width`, each line prefixed by `indent`.
    mutating func appendWrapped(_ text: String, width: Int, indent: String = "", role: StyleRole = .normal) {
        for line in wrap(text, width: Swift.max(1, width - indent.count)) { append(StyledLine(indent + line, role)) }
    }
}
