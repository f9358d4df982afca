/// What a piece of text means, so each front end can colour it its own way (and never rely
/// on colour alone: every status also has a glyph and a word).
///
/// ```swift
/// let palette: [StyleRole: String] = [.applied: "green", .pending: "yellow", .failed: "red"]   // a front end's own colours
/// ```
public enum StyleRole: Sendable, Equatable, CaseIterable {
    /// Plain text.
    case normal
    /// A heading: the app and the upgrade.
    case title
    /// What matters least: hints, paths, times.
    case dim
    /// A migration that has run.
    case applied
    /// A migration that runs on the next launch.
    case pending
    /// A migration whose body threw, and errors.
    case failed
    /// A migration that does not run, and why.
    case skipped
    /// An update hook.
    case hook
    /// Something to look at before going on: a read-only store, a run going on.
    case warning
    /// The selected row.
    case selection
    /// A key or a word to notice.
    case accent
}
