/// One declared migration: its version or build, what to tell people about it, and its body.
public struct RegisteredMigration: Sendable, Identifiable {
    /// Its position in declaration order, from 0.
    public let id: Int
    public let track: MigrationTrack
    /// The version or build exactly as declared.
    public let declared: String
    /// The parsed version, or why it could not be parsed.
    public let parsed: Result<Version, VersionError>
    public let title: String
    public let notes: String?
    /// Lines for a "What's New" screen.
    public let whatsNew: [String]
    public let body: MigrationBody

    /// The parsed version, or `nil` when the declaration is invalid.
    public var version: Version? { try? parsed.get() }
}

/// Code that runs when the app version (``MigrationTrack/version``, `applicationUpdateBlock`)
/// or build (``MigrationTrack/build``, `buildNumberUpdateBlock`) differs from the recorded one.
public struct UpdateHook: Sendable, Identifiable {
    public let id: Int
    public let track: MigrationTrack
    public let title: String
    public let body: MigrationBody
}
