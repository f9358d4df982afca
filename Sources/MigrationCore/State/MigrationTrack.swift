/// Which number a migration is keyed on: the marketing version or the build.
///
/// The two tracks are independent, as in MTMigration: each has its own high-water mark.
public enum MigrationTrack: String, Sendable, Codable, CaseIterable {
    /// `CFBundleShortVersionString`, `migrateToVersion`.
    case version
    /// `CFBundleVersion`, `migrateToBuild`.
    case build
}
