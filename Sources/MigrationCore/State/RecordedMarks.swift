/// A ``MigrationState``'s four marks, parsed. A mark that is not a version is an error, never
/// read as "nothing recorded", which would run every migration again.
struct RecordedMarks: Sendable {
    var lastMigrated: [MigrationTrack: Version] = [:]
    var lastApp: [MigrationTrack: Version] = [:]

    init(_ state: MigrationState) throws(MigrationStateError) {
        for track in MigrationTrack.allCases {
            lastMigrated[track] = try Self.parse(state.lastMigrated(track), field: "last migrated \(track)")
            lastApp[track] = try Self.parse(state.lastApp(track), field: "last app \(track)")
        }
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
