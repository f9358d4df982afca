/// One declared migration: its version or build, what to tell people about it, and its body.
///
/// A reference, so that plans of 100,000 migrations share the declarations instead of
/// copying them.
///
/// ```swift
/// for migration in registry.migrations {
///     print(migration.label, migration.version == nil ? "(not a version)" : "", migration.whatsNew)
/// }
/// ```
public final class RegisteredMigration: Sendable, Identifiable {
    /// Its position in declaration order, from 0.
    public let id: Int
    /// Whether it is keyed on the app version or the build.
    public let track: MigrationTrack
    /// The version or build exactly as declared.
    public let declared: String
    /// The parsed version, or `nil` when the declaration is invalid (see ``versionError``).
    public var version: Version? { try? parsed.get() }
    /// Why ``declared`` is not a version, when it is not.
    public var versionError: VersionError? {
        if case .failure(let error) = parsed { error } else { nil }
    }
    /// What it does, in a few words, for plans and reports.
    public let title: String
    /// A longer explanation, for the terminal UI's details pane.
    public let notes: String?
    /// Lines for a "What's New" screen.
    public let whatsNew: [String]
    /// The first release whose code contains it, as declared; `nil`: its own version.
    public var sinceDeclared: String? { sinceDeclaration?.declared }
    /// ``sinceDeclared`` parsed; `nil` when not given or not a version (see ``sinceError``).
    public var since: Version? { try? sinceDeclaration?.parsed.get() }
    /// Why ``sinceDeclared`` is not a version, when it is not.
    public var sinceError: VersionError? {
        if case .failure(let error) = sinceDeclaration?.parsed { error } else { nil }
    }
    /// The code it runs.
    public let body: MigrationWork

    // Stored compactly, since a registry may hold a million of these: a version or its error
    // in one field, and the rarely given `since` in a box that costs one pointer when absent.
    private let parsed: Result<Version, VersionError>
    private let sinceDeclaration: Since?

    /// A declared `since`, parsed.
    private final class Since: Sendable {
        let declared: String
        let parsed: Result<Version, VersionError>

        init(_ declared: String) {
            self.declared = declared
            parsed = RegisteredMigration.parse(declared)
        }
    }

    init(id: Int, track: MigrationTrack, declared: String, title: String, notes: String?, whatsNew: [String],
         since: String? = nil, body: MigrationWork) {
        self.id = id
        self.track = track
        self.declared = declared
        parsed = Self.parse(declared)
        self.title = title
        self.notes = notes
        self.whatsNew = whatsNew
        sinceDeclaration = since.map(Since.init)
        self.body = body
    }

    private static func parse(_ text: String) -> Result<Version, VersionError> {
        do { return .success(try Version(text)) } catch { return .failure(error) }
    }

    /// The first release whose code contains it: ``since``, else its own version.
    public var shippedSince: Version? { since ?? version }

    /// `version 0.9 "Add GUIDs"`: how problems and reports name a migration.
    public var label: String { "\(track.rawValue) \(declared) \(title.quotedTitle)" }
}

/// Code that runs when the app version (``MigrationTrack/version``, `applicationUpdateBlock`)
/// or build (``MigrationTrack/build``, `buildNumberUpdateBlock`) differs from the recorded one.
///
/// ```swift
/// registry.onUpdate(title: "Show What's New") { _ in }
/// registry.hooks.last?.kind   // "onUpdate"
/// ```
public struct UpdateHook: Sendable, Identifiable {
    /// Its position among the registry's hooks, in declaration order, from 0.
    public let id: Int
    /// ``MigrationTrack/version`` for `onUpdate`, ``MigrationTrack/build`` for `onBuildUpdate`.
    public let track: MigrationTrack
    /// What it does, in a few words, for plans and reports.
    public let title: String
    /// The code it runs.
    public let body: MigrationWork

    /// `onUpdate` or `onBuildUpdate`, as manifests and reports name the kind.
    public var kind: String { track == .version ? "onUpdate" : "onBuildUpdate" }
}
