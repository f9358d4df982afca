extension StringProtocol {
    /// The text with the password of every URL in it shown as `…`: the user part's
    /// (`postgres://ann:…@db/notes`) and a `password=` parameter's. Errors pass through here, so
    /// that a URL given where none was expected (an unexpected argument, `--store
    /// postgres://…`) shows no password either; `--postgres` itself redacts its URL exactly.
    ///
    /// ```swift
    /// "Unexpected argument 'postgres://ann:s3cret@db/notes'".redactingPasswords
    /// // "Unexpected argument 'postgres://ann:…@db/notes'"
    /// ```
    var redactingPasswords: String {
        String(self)
            // Up to the last @ of the word: a password may hold / or @.
            .replacing(#/(?<head>[A-Za-z][A-Za-z0-9+.\-]*://[^\s/@:]*):[^\s]*@/#) { "\($0.head):…@" }
            .replacing(#/(?i)(?<key>password=)[^\s&#]*/#) { "\($0.key)…" }
    }
}
