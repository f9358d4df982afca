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
struct RecordedMarks: Sendable {
    /// How one mark reads.
    private enum Reading: Sendable {
        case notRecorded
        case version(Version)
        case unusable(MigrationStateError)
    }

    /// Per mark, in the order of ``RecordedMark/allCases``.
    private let readings: [Reading]

    /// The marks read loosely, for diagnostics: `MTMigration.lastMigrationVersion is "2.0b", …`.
    let looseMarks: [LooseMark]

    init(_ state: MigrationState) {
        var notes: [LooseMark] = []
        readings = RecordedMark.allCases.map { Self.read($0, of: state, notes: &notes) }
        looseMarks = notes
    }

    /// `mark` of `state` as a version, or why it is unusable; a loose reading adds a note.
    private static func read(_ mark: RecordedMark, of state: MigrationState, notes: inout [LooseMark]) -> Reading {
        guard let text = state[mark] else { return .notRecorded }
        do {
            return .version(try Version(text))
        } catch {
            let source = state.markSources[mark] ?? mark.phrase
            guard let loose = Version(leadingComponentsOf: text) else {
                return .unusable(MigrationStateError(mark: mark, source: source, error: error))
            }
            notes.append(LooseMark(mark: mark, source: source, recorded: text, countsAs: loose))
            return .version(loose)
        }
    }

    /// The version `mark` records (`nil`: none).
    /// - Throws: ``MigrationStateError`` when the recorded value is unusable.
    private func version(_ mark: RecordedMark) throws(MigrationStateError) -> Version? {
        switch readings[mark.index] {
        case .notRecorded: nil
        case .version(let version): version
        case .unusable(let error): throw error
        }
    }

    func lastMigrated(_ track: MigrationTrack) throws(MigrationStateError) -> Version? {
        try version(.lastMigrated(track))
    }

    func lastApp(_ track: MigrationTrack) throws(MigrationStateError) -> Version? {
        try version(.lastApp(track))
    }

    /// ``MigrationRule/shouldRun(_:lastMigrated:app:)`` on the mark of `track`.
    func shouldRun(_ version: Version, on track: MigrationTrack, app: Version?) throws(MigrationStateError) -> Bool {
        MigrationRule.shouldRun(version, lastMigrated: try lastMigrated(track), app: app)
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
