/// A ``MigrationState``'s four marks, parsed. A mark that is not a version is an error, never
/// read as "nothing recorded", which would run every migration again.
struct RecordedMarks: Sendable {
    private let lastMigratedVersion, lastMigratedBuild, lastAppVersion, lastAppBuild: Version?

    init(_ state: MigrationState) throws(MigrationStateError) {
        lastMigratedVersion = try Self.parse(state.lastMigratedVersion, field: "last migrated version")
        lastMigratedBuild = try Self.parse(state.lastMigratedBuild, field: "last migrated build")
        lastAppVersion = try Self.parse(state.lastAppVersion, field: "last app version")
        lastAppBuild = try Self.parse(state.lastAppBuild, field: "last app build")
    }

    func lastMigrated(_ track: MigrationTrack) -> Version? {
        track == .version ? lastMigratedVersion : lastMigratedBuild
    }

    func lastApp(_ track: MigrationTrack) -> Version? {
        track == .version ? lastAppVersion : lastAppBuild
    }

    private static func parse(_ text: String?, field: String) throws(MigrationStateError) -> Version? {
        guard let text else { return nil }
        do { return try Version(text) } catch {
            throw MigrationStateError(field: field, error: error)
        }
    }
}

/// A store recorded a mark that is not a version, so nothing can safely run.
public struct MigrationStateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which mark, e.g. "last migrated version".
    public let field: String
    public let error: VersionError

    public var description: String {
        "the recorded \(field) cannot be used: \(error); fix or reset the store"
    }
}
