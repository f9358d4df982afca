/// One of the four marks a store records, MTMigration's own records.
///
/// ```swift
/// var state = try store.load()
/// state[.lastMigrated(.version)] = "0.8"   // state.lastMigratedVersion
/// ```
public enum RecordedMark: String, Sendable, CaseIterable {
    /// The version of the last version migration that ran.
    case lastMigratedVersion
    /// The build of the last build migration that ran.
    case lastMigratedBuild
    /// The app version that version update hooks last fired for.
    case lastAppVersion
    /// The app build that build update hooks last fired for.
    case lastAppBuild

    /// The high-water mark of `track`.
    public static func lastMigrated(_ track: MigrationTrack) -> RecordedMark {
        track == .version ? .lastMigratedVersion : .lastMigratedBuild
    }

    /// The app version (or build) that update hooks last fired for on `track`.
    public static func lastApp(_ track: MigrationTrack) -> RecordedMark {
        track == .version ? .lastAppVersion : .lastAppBuild
    }

    /// Its position in ``allCases``.
    var index: Int {
        switch self {
        case .lastMigratedVersion: 0
        case .lastMigratedBuild: 1
        case .lastAppVersion: 2
        case .lastAppBuild: 3
        }
    }

    /// How people read it: "last migrated version".
    public var phrase: String {
        switch self {
        case .lastMigratedVersion: "last migrated version"
        case .lastMigratedBuild: "last migrated build"
        case .lastAppVersion: "last app version"
        case .lastAppBuild: "last app build"
        }
    }
}

/// A ``MigrationState``'s four marks, each parsed on its own, so that a bad value affects only
/// its own track.
///
/// A mark that is not a strict version (`"2.0b"`, `"1.4 (18)"`, written loosely by another
/// library) counts as the version made of its leading numbers, with a note that says so. A
/// mark with no leading number is unusable: its track runs nothing (it is never read as
/// "nothing recorded", which would run every migration again), and the error names the key
/// and the value.
final class RecordedMarks: Sendable {
    // Per mark, its version (`nil` when it is not recorded or unusable), and why it is
    // unusable: properties, for the launch fast path (see `LaunchCheck`).
    private let lastMigratedVersion, lastMigratedBuild, lastAppVersion, lastAppBuild: Version?
    private let lastMigratedVersionError, lastMigratedBuildError, lastAppVersionError, lastAppBuildError: MigrationStateError?
    /// No mark is unusable.
    private let allUsable: Bool

    /// The marks read loosely, for diagnostics: `MTMigration.lastMigrationVersion is "2.0b", …`.
    let looseMarks: [LooseMark]

    init(_ state: MigrationState) {
        var notes: [LooseMark] = []
        (lastMigratedVersion, lastMigratedVersionError) = Self.parse(.lastMigratedVersion, of: state, notes: &notes)
        (lastMigratedBuild, lastMigratedBuildError) = Self.parse(.lastMigratedBuild, of: state, notes: &notes)
        (lastAppVersion, lastAppVersionError) = Self.parse(.lastAppVersion, of: state, notes: &notes)
        (lastAppBuild, lastAppBuildError) = Self.parse(.lastAppBuild, of: state, notes: &notes)
        allUsable = lastMigratedVersionError == nil && lastMigratedBuildError == nil && lastAppVersionError == nil
            && lastAppBuildError == nil
        looseMarks = notes
    }

    /// `mark` of `state` as a version, or why it is unusable; a loose reading adds a note.
    private static func parse(
        _ mark: RecordedMark, of state: MigrationState, notes: inout [LooseMark]
    ) -> (Version?, MigrationStateError?) {
        guard let text = state[mark] else { return (nil, nil) }
        do {
            return (try Version(text), nil)
        } catch {
            let source = state.source(of: mark) ?? mark.phrase
            guard let loose = Version(leadingComponentsOf: text) else {
                return (nil, MigrationStateError(mark: mark, source: source, error: error))
            }
            notes.append(LooseMark(mark: mark, source: source, recorded: text, countsAs: loose))
            return (loose, nil)
        }
    }

    func lastMigrated(_ track: MigrationTrack) throws(MigrationStateError) -> Version? {
        try checkUsable(.lastMigrated(track))
        return track == .version ? lastMigratedVersion : lastMigratedBuild
    }

    func lastApp(_ track: MigrationTrack) throws(MigrationStateError) -> Version? {
        try checkUsable(.lastApp(track))
        return track == .version ? lastAppVersion : lastAppBuild
    }

    /// ``MigrationRule/shouldRun(_:lastMigrated:app:)`` on the mark of `track`, compared in place.
    func shouldRun(_ version: Version, on track: MigrationTrack, app: Version?) throws(MigrationStateError) -> Bool {
        try checkUsable(.lastMigrated(track))
        switch track {
        case .version: return MigrationRule.shouldRun(version, lastMigrated: lastMigratedVersion, app: app)
        case .build: return MigrationRule.shouldRun(version, lastMigrated: lastMigratedBuild, app: app)
        }
    }

    private func checkUsable(_ mark: RecordedMark) throws(MigrationStateError) {
        guard !allUsable else { return }
        let error = switch mark {
        case .lastMigratedVersion: lastMigratedVersionError
        case .lastMigratedBuild: lastMigratedBuildError
        case .lastAppVersion: lastAppVersionError
        case .lastAppBuild: lastAppBuildError
        }
        if let error { throw error }
    }
}

/// A store recorded a mark that cannot be read as a version, so nothing on its track can
/// safely run.
///
/// ```swift
/// do { _ = try runner.plan(store: store) } catch let error as MigrationStateError {
///     print(error)   // the recorded last migrated version cannot be used: … is "abc", which is not a version; …
/// }
/// ```
public struct MigrationStateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which mark.
    public let mark: RecordedMark
    /// Where it was read: a `UserDefaults` key, a file's field; the mark's phrase otherwise.
    public let source: String
    /// Why the recorded value is not a version.
    public let error: VersionError

    /// The mark, where it was read, its value, and what to do.
    public var description: String {
        "the recorded \(mark.phrase) cannot be used: \(source) is \"\(error.input)\", which is not a version; "
            + "nothing on that track runs; fix or reset the store"
    }
}
