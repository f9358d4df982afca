extension StringProtocol {
    /// The text with its first letter capitalised, to open a sentence: "cancelled at …" →
    /// "Cancelled at …".
    var capitalisingFirst: String { prefix(1).uppercased() + dropFirst() }
}

extension String {
    /// The text cut to `width` columns, ending with `ellipsis` when it was cut; empty when
    /// not even the ellipsis fits.
    func cut(toWidth width: Int, ellipsis: String) -> String {
        guard displayWidth > width else { return self }
        guard width >= ellipsis.displayWidth else { return "" }
        var kept = Substring(self)
        while !kept.isEmpty, kept.displayWidth + ellipsis.displayWidth > width { kept = kept.dropLast() }
        return kept + ellipsis
    }
}
