import Foundation

/// The version and build of the running app, as strings, from wherever the app keeps them.
///
/// ```swift
/// let fromBundle = AppVersions.mainBundle()                 // CFBundleShortVersionString / CFBundleVersion
/// let explicit = AppVersions(version: "1.0", build: "100")
/// let level = try AppVersions.infoPlist(at: plistURL, versionKey: "DatabaseCompatibilityLevel", buildKey: nil)
/// ```
public struct AppVersions: Sendable, Equatable {
    /// `CFBundleShortVersionString`, or whatever the app calls its marketing version.
    public var version: String
    /// `CFBundleVersion`, or `nil` when the app has no build number.
    public var build: String?
    /// Where ``version`` came from, for diagnostics: `"appVersion"`, `"CFBundleShortVersionString"`, …
    public var versionSource: String
    /// Where ``build`` came from, for diagnostics.
    public var buildSource: String

    /// Versions given as strings; the sources name them in diagnostics.
    ///
    /// ```swift
    /// let versions = AppVersions(version: "2.1", build: "312")
    /// ```
    public init(version: String, build: String? = nil, versionSource: String = "appVersion", buildSource: String = "appBuild") {
        self.version = version
        self.build = build
        self.versionSource = versionSource
        self.buildSource = buildSource
    }

    /// Equal when the version and build are: where they came from does not count.
    public static func == (lhs: AppVersions, rhs: AppVersions) -> Bool {
        lhs.version == rhs.version && lhs.build == rhs.build
    }

    /// The main bundle's `CFBundleShortVersionString` and `CFBundleVersion`.
    ///
    /// Where the bundle has no version (a bare executable on Linux) the version is empty, which
    /// the migrator reports as a diagnostic rather than running anything.
    ///
    /// ```swift
    /// let migrator = Migrator(versions: .mainBundle())
    /// ```
    public static func mainBundle() -> AppVersions {
        let info = Bundle.main.infoDictionary ?? [:]
        return AppVersions(
            version: info["CFBundleShortVersionString"].flatMap(stringValue) ?? "",
            build: info["CFBundleVersion"].flatMap(stringValue),
            versionSource: "Info.plist CFBundleShortVersionString", buildSource: "Info.plist CFBundleVersion"
        )
    }

    /// Reads the versions from an `Info.plist` file (XML or binary) on any platform.
    ///
    /// Integer values are accepted too, for apps that keep a numeric "compatibility level".
    ///
    /// ```swift
    /// let versions = try AppVersions.infoPlist(at: plistURL, versionKey: "DatabaseLevel", buildKey: nil)
    /// ```
    /// - Throws: ``InfoPlistError`` when the file cannot be read or parsed, or the version key is
    ///   missing or not a string or integer.
    public static func infoPlist(
        at url: URL,
        versionKey: String = "CFBundleShortVersionString",
        buildKey: String? = "CFBundleVersion"
    ) throws(InfoPlistError) -> AppVersions {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw InfoPlistError(path: url.path, problem: .unreadable(error.localizedDescription))
        }
        let parsed = try? PropertyListSerialization.propertyList(from: data, format: nil)
        guard let dictionary = parsed as? [String: Any] else {
            throw InfoPlistError(path: url.path, problem: .notADictionary)
        }
        guard let raw = dictionary[versionKey] else {
            throw InfoPlistError(path: url.path, problem: .missingKey(versionKey))
        }
        guard let version = stringValue(raw) else {
            throw InfoPlistError(path: url.path, problem: .notAString(versionKey))
        }
        return AppVersions(
            version: version, build: buildKey.flatMap { dictionary[$0] }.flatMap(stringValue),
            versionSource: "\(url.lastPathComponent) \(versionKey)", buildSource: "\(url.lastPathComponent) \(buildKey ?? "")"
        )
    }

    private static func stringValue(_ value: Any) -> String? {
        switch value {
        case let string as String: string
        case let integer as Int: String(integer)
        default: nil
        }
    }
}

/// Why an `Info.plist` could not give an app version.
///
/// ```swift
/// do { _ = try AppVersions.infoPlist(at: plistURL) } catch { print(error) }   // …/Info.plist: has no key "CFBundleShortVersionString"
/// ```
public struct InfoPlistError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the file.
    public enum Problem: Sendable, Equatable {
        /// The file could not be read; the reason.
        case unreadable(String)
        /// The file is not a property list with a dictionary at its root.
        case notADictionary
        /// The version key is missing; the key.
        case missingKey(String)
        /// The version key holds neither a string nor an integer; the key.
        case notAString(String)
    }

    /// The file's path.
    public let path: String
    /// What is wrong with it.
    public let problem: Problem

    /// The path and what is wrong, in words.
    public var description: String {
        switch problem {
        case .unreadable(let why): "\(path): cannot be read (\(why))"
        case .notADictionary: "\(path): is not a property list with a dictionary at its root"
        case .missingKey(let key): "\(path): has no key \"\(key)\""
        case .notAString(let key): "\(path): \"\(key)\" is neither a string nor an integer"
        }
    }
}
