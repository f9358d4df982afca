/// Which number a migration is keyed on: the marketing version or the build.
///
/// The two tracks are independent, as in MTMigration: each has its own high-water mark.
///
/// ```swift
/// let state = try store.load()
/// for track in MigrationTrack.allCases { print(track, state.lastMigrated(track) ?? "none") }
/// ```
public enum MigrationTrack: String, Sendable, Codable, CaseIterable {
    /// `CFBundleShortVersionString`, `migrateToVersion`.
    case version
    /// `CFBundleVersion`, `migrateToBuild`.
    case build
}
