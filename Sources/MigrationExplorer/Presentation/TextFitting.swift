/// Text fitted to where it goes: a sentence's start, a number of terminal cells.
extension StringProtocol {
    /// The text with its first letter capitalised, to open a sentence: "cancelled at …" →
    /// "Cancelled at …".
    var capitalisingFirst: String { prefix(1).uppercased() + dropFirst() }

    /// The text cut to `width` terminal cells, ending with `ellipsis` when it was cut (as much
    /// of the ellipsis as fits, when not all of it does).
    func cut(toWidth width: Int, ellipsis: String) -> String {
        guard displayWidth > width else { return String(self) }
        let room = width - ellipsis.displayWidth
        guard room >= 0 else { return String(ellipsis.prefix(Swift.max(0, width))) }
        var used = 0
        return String(prefix { used += $0.displayWidth; return used <= room }) + ellipsis
    }
}
