import MigrationCore

/// What changed, in one line for the explorer's message line, cut to its width: the
/// migrations whose status a change of the store moved, or what a manifest's new save added,
/// removed or retitled. Declared text (titles, versions) and who changed it are made drawable.
///
/// ```swift
/// ChangeSummary.store(from: shown, to: reread, by: "web-1:4121", width: 80)
/// // "1.1 Move notes applied, 1.2 Seed tags pending (by web-1:4121)"
/// ChangeSummary.manifest(from: shown.registry, to: saved.registry, width: 80)
/// // "manifest: 2 migrations added, 1.3 title changed"
/// ```
public enum ChangeSummary {
    /// The migrations of `new` whose status differs from `old`'s, each with its new status
    /// word, in `new`'s order; `writer` (host and process, where the store knows) after them.
    public static func store(from old: MigrationPlan, to new: MigrationPlan, by writer: String? = nil, width: Int) -> String {
        let moved = statusChanges(from: old, to: new)
        let what = moved.isEmpty ? "store changed; no migration changed status" : moved.joined(separator: ", ")
        let by = writer.map { " (by \($0))" } ?? ""
        return (what + by).drawable.cut(toWidth: width, ellipsis: "…")
    }

    /// The migrations of `new` whose status differs from `old`'s ("1.1 Move notes applied"), in
    /// `new`'s order; empty when a change of the store moved none.
    static func statusChanges(from old: MigrationPlan, to new: MigrationPlan) -> [String] {
        entriesChangingStatus(from: old, to: new).map { "\($0.migration.declared) \($0.migration.title) \($0.status.word)" }
    }

    /// The migrations whose status `new` changes, by what they declare ("1.0 Add GUIDs").
    static func migrationsChangingStatus(from old: MigrationPlan, to new: MigrationPlan) -> Set<String> {
        Set(entriesChangingStatus(from: old, to: new).map { "\($0.migration.declared) \($0.migration.title)" })
    }

    private static func entriesChangingStatus(from old: MigrationPlan, to new: MigrationPlan) -> [PlanEntry] {
        let before = Dictionary(old.entries.map { (Key($0.migration), $0.status.word) }, uniquingKeysWith: { first, _ in first })
        return new.entries.filter { before[Key($0.migration)] != $0.status.word }
    }

    /// What `new` declares that `old` did not, no longer declares, or titles differently.
    public static func manifest(from old: MigrationRegistry, to new: MigrationRegistry, width: Int) -> String {
        let before = Dictionary(old.migrations.map { (Key($0), $0) }, uniquingKeysWith: { first, _ in first })
        let after = Dictionary(new.migrations.map { (Key($0), $0) }, uniquingKeysWith: { first, _ in first })
        let added = new.migrations.filter { before[Key($0)] == nil }
        let removed = old.migrations.filter { after[Key($0)] == nil }
        let retitled = new.migrations.filter { migration in before[Key(migration)].map { $0.title != migration.title } ?? false }
        var parts = [counted(added, "added"), counted(removed, "removed")].compactMap { $0 }
        parts += retitled.map { "\($0.declared) title changed" }
        let what = parts.isEmpty ? "saved, no migration changed" : parts.joined(separator: ", ")
        return ("manifest: " + what).drawable.cut(toWidth: width, ellipsis: "…")
    }

    /// "1.3 Seed tags added" for one, "2 migrations added" for more; nil for none.
    private static func counted(_ migrations: [RegisteredMigration], _ what: String) -> String? {
        switch migrations.count {
        case 0: nil
        case 1: "\(migrations[0].declared) \(migrations[0].title) \(what)"
        default: "\(migrations.count) migrations \(what)"
        }
    }

    /// A migration as a change names it: its track and declared version or build.
    private struct Key: Hashable {
        let track: MigrationTrack
        let declared: String

        init(_ migration: RegisteredMigration) {
            (track, declared) = (migration.track, migration.declared)
        }
    }
}
