/// What a piece of text means, so each front end can colour it its own way (and never rely
/// on colour alone: every status also has a glyph and a word).
public enum StyleRole: Sendable, Equatable, CaseIterable {
    case normal, title, dim, applied, pending, failed, skipped, hook, warning, selection, accent
}
