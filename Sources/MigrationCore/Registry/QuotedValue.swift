extension String {
    /// The most characters of a value a message quotes; a longer one is cut.
    package static let quotableLength = 60

    /// The value between quotes, as an error quotes what someone gave: whole when short; cut
    /// to its first characters, "…" and its length when longer, so that a megabyte of input
    /// makes a line of message, not a megabyte.
    ///
    /// ```swift
    /// "1.0-beta".quotedValue                                 // "1.0-beta"
    /// String(repeating: "9", count: 1_000_000).quotedValue   // "99999…" (1000000 characters), 50 nines
    /// ```
    package var quotedValue: String {
        guard let (start, count) = cutForMessage else { return "\"\(self)\"" }
        return "\"\(start)…\" (\(count) characters)"
    }

    /// The text, unquoted, cut as ``quotedValue`` cuts it: for text that shows its own
    /// quotes (JSON) or none (a field name in a path).
    ///
    /// ```swift
    /// String(repeating: "k", count: 1_000_000).shortenedForMessage   // kkkk… (1000000 characters)
    /// ```
    package var shortenedForMessage: String {
        guard let (start, count) = cutForMessage else { return self }
        return "\(start)… (\(count) characters)"
    }

    /// The start of the text and its length in characters, when it is too long to quote whole.
    private var cutForMessage: (start: Substring, count: Int)? {
        // A text of few bytes has few characters: most are decided without counting them.
        guard utf8.count > Self.quotableLength, count > Self.quotableLength else { return nil }
        return (prefix(Self.quotableLength - 10), count)
    }
}
