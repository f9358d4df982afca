extension StringProtocol {
    /// The text with its first letter capitalised, to open a sentence: "cancelled at …" →
    /// "Cancelled at …".
    var capitalisingFirst: String { prefix(1).uppercased() + dropFirst() }
}
