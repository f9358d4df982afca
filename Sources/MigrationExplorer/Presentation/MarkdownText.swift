extension String {
    /// The text as one line of Markdown that renders as written: line breaks become spaces and
    /// every character Markdown gives a meaning to (`*`, `_`, `#`, `` ` ``, `[`, …) is escaped.
    ///
    /// ```swift
    /// "Fix *all* notes".markdownEscaped   // "Fix \\*all\\* notes"
    /// ```
    var markdownEscaped: String {
        var escaped = ""
        for character in self {
            if character.isNewline {
                if escaped.last != " " { escaped.append(" ") }
            } else {
                if Self.markdownSpecial.contains(character) { escaped.append("\\") }
                escaped.append(character)
            }
        }
        return escaped
    }

    private static let markdownSpecial: Set<Character> = ["\\", "`", "*", "_", "{", "}", "[", "]", "<", ">", "#", "|", "~", "!"]
}
