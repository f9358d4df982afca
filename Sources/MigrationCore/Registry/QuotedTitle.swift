extension String {
    /// The title between quotes, as labels and messages show it: `"Add GUIDs"`, or
    /// `“Rename "body" to "text"”` when it holds double quotes itself, so that no quote is
    /// nested in one of its own kind.
    ///
    /// ```swift
    /// "version 0.9 " + "Add GUIDs".quotedTitle   // version 0.9 "Add GUIDs"
    /// ```
    package var quotedTitle: String {
        contains("\"") ? "“\(self)”" : "\"\(self)\""
    }
}
