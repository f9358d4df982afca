/// Breaks `text` into lines of at most `width` cells, at spaces where it can.
func wrap(_ text: String, width: Int) -> [String] {
    guard width > 0 else { return [] }
    var lines: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
        var line = ""
        // Whether the line has begun: leading spaces (an indent) are kept.
        var started = false
        for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
            var word = Substring(word)
            while word.displayWidth > width {
                if started { lines.append(line); line = ""; started = false }
                var piece = ""
                while let next = word.first, piece.displayWidth + next.displayWidth <= width {
                    piece.append(next)
                    word = word.dropFirst()
                }
                if piece.isEmpty { piece = String(word.removeFirst()) }
                lines.append(piece)
            }
            if !started {
                line = String(word)
                started = true
            } else if line.displayWidth + 1 + word.displayWidth <= width {
                line += " " + word
            } else {
                lines.append(line)
                line = String(word)
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
