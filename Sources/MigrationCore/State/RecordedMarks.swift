/// One of the four marks a store records, MTMigration's own records.
public enum RecordedMark: String, Sendable, CaseIterable {
    case lastMigratedVersion, lastMigratedBuild, lastAppVersion, lastAppBuild

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
    private enum Reading: Sendable {
        case none
        case version(Version)
        case unusable(MigrationStateError)
    }

    private let readings: (Reading, Reading, Reading, Reading)

    /// What was read loosely, for diagnostics: `MTMigration.lastMigrationVersion is "2.0b"; …`.
    let notes: [String]

    init(_ state: MigrationState) {
        var readings: [Reading] = []
        var notes: [String] = []
        readings.reserveCapacity(4)
        for mark in RecordedMark.allCases {
            guard let text = state[mark] else {
                readings.append(.none)
                continue
            }
            do {
                readings.append(.version(try Version(text)))
            } catch {
                let source = state.markSources[mark] ?? mark.phrase
                if let loose = Version(leadingComponentsOf: text) {
                    readings.append(.version(loose))
                    notes.append("\(source) is \"\(text)\", not a version; it counts as \(loose.text)")
                } else {
                    readings.append(.unusable(MigrationStateError(mark: mark, source: source, error: error)))
                }
            }
        }
        self.readings = (readings[0], readings[1], readings[2], readings[3])
        self.notes = notes
    }

    func lastMigrated(_ track: MigrationTrack) throws(MigrationStateError) -> Version? {
        try value(.lastMigrated(track))
    }

    func lastApp(_ track: MigrationTrack) throws(MigrationStateError) -> Version? {
        try value(.lastApp(track))
    }

    private func value(_ mark: RecordedMark) throws(MigrationStateError) -> Version? {
        let reading: Reading = switch mark {
        case .lastMigratedVersion: readings.0
        case .lastMigratedBuild: readings.1
        case .lastAppVersion: readings.2
        case .lastAppBuild: readings.3
        }
        switch reading {
        case .none: return nil
        case .version(let version): return version
        case .unusable(let error): throw error
        }
    }
}

/// A store recorded a mark that cannot be read as a version, so nothing on its track can
/// safely run.
public struct MigrationStateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which mark.
    public let mark: RecordedMark
    /// Where it was read: a `UserDefaults` key, a file's field; the mark's phrase otherwise.
    public let source: String
    public let error: VersionError

    public var description: String {
        "the recorded \(mark.phrase) cannot be used: \(source) is \"\(error.input)\", which is not a version; "
            + "nothing on that track runs; fix or reset the store"
    }
}
