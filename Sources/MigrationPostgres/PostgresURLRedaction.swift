import Foundation

extension PostgresServer {
    /// `url` with every password in it hidden: the `password=` parameters' values, and what
    /// follows the first `:` of the user part, up to the URL's last `@`. It hides too much rather
    /// than too little: a password holding `/`, `?` or `@` unencoded is hidden whole, and an `@`
    /// later in the URL hides the text before it.
    ///
    /// ```swift
    /// PostgresServer.redacted("postgres://alice:s3cret@db/notes")            // postgres://alice:…@db/notes
    /// PostgresServer.redacted("postgres://alice@db/notes?password=s3cret")   // postgres://alice@db/notes?password=…
    /// ```
    public static func redacted(_ url: String) -> String {
        var text = url.replacingOccurrences(of: #"([?&]password=)[^&#]*"#, with: "$1…", options: [.regularExpression, .caseInsensitive])
        guard let start = text.range(of: "://")?.upperBound, let at = text[start...].lastIndex(of: "@"),
              let colon = text[start..<at].firstIndex(of: ":") else { return text }
        text.replaceSubrange(text.index(after: colon)..<at, with: "…")
        return text
    }
}
