/// The app version (and build) an upgrade goes to.
///
/// ```swift
/// let target = try AppTarget(version: "1.0", build: "120")
/// ```
public struct AppTarget: Sendable, Equatable {
    /// The app's version (`CFBundleShortVersionString`).
    public var version: Version
    /// The app's build (`CFBundleVersion`); `nil`: the app has no build number, and no build
    /// migration or build hook runs.
    public var build: Version?

    /// A target from versions already parsed.
    ///
    /// ```swift
    /// let target = AppTarget(version: try Version("1.0"), build: try Version("120"))
    /// ```
    public init(version: Version, build: Version? = nil) {
        self.version = version
        self.build = build
    }

    /// Parses both strings; an empty or missing build means the app has no build number.
    ///
    /// ```swift
    /// let target = try AppTarget(version: "1.0", build: "120")
    /// ```
    /// - Throws: ``VersionError`` naming the string that is not a version.
    public init(version: String, build: String? = nil) throws(VersionError) {
        self.version = try Version(version)
        self.build = try Version.build(build)
    }

    /// The target on `track`.
    public func value(on track: MigrationTrack) -> Version? {
        switch track {
        case .version: version
        case .build: build
        }
    }
}

extension Version {
    /// An app's build: `nil` for none or an empty string, else the parsed version.
    static func build(_ text: String?) throws(VersionError) -> Version? {
        guard let text, !text.isEmpty else { return nil }
        return try Version(text)
    }
}

/// What a run does on a fresh install (no record at all).
///
/// ```swift
/// let migrator = Migrator(appVersion: "3.0", policy: .baseline)   // adopted in 3.0: old migrations never run
/// let runner = MigrationRunner(registry: registry, target: try AppTarget(version: "3.0"), policy: .baseline)
/// ```
public enum FreshInstallPolicy: String, Sendable, CaseIterable {
    /// MTMigration's behaviour: every migration up to the app version runs, and hooks fire.
    case runAll
    /// Record every migration up to the app version as applied without running it, and fire
    /// no hooks: for apps that adopt migrations after their first release.
    case baseline
}
