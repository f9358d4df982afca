import Foundation

/// Reads a JSON manifest into a ``MigrationManifest``, for apps whose migrations are not in
/// Swift, and for an app's own registry written by ``MigrationRegistry/manifest(appVersion:appBuild:releases:)``.
///
/// ```json
/// { "app": "Notes", "appVersion": "1.0", "appBuild": "120", "releases": ["0.8", "0.9", "1.0"],
///   "migrations": [ { "version": "0.9", "title": "Add GUIDs", "run": "./scripts/add-guids.sh", "timeout": 60 },
///                   { "version": "0.7", "title": "Trim titles", "since": "1.0" },
///                   { "version": "1.0", "title": "Pin notes", "sql": "ALTER TABLE note ADD pinned INTEGER" } ],
///   "onUpdate": [ { "title": "Reset statistics", "run": "…" } ] }
/// ```
///
/// ```swift
/// let manifest = try Manifest.load(path: "manifest.json")
/// let plan = try MigrationPlan(registry: manifest.registry, state: .freshInstall,
///                              target: try AppTarget(version: manifest.appVersion))
/// ```
public enum Manifest {
    /// Loads and checks the manifest at `path`; `commands` turns each `run` into a body, and
    /// `sql` each `sql` (default: bodies that fail, saying they need `migration-explorer`).
    /// - Throws: ``ManifestError`` listing every problem (unreadable file, bad JSON, unknown
    ///   field, missing title, both or neither of version/build, malformed or duplicate version,
    ///   a `since` or release that is not a version, a `timeout` that is not a positive number,
    ///   a control character in a `run`).
    public static func load(
        path: String, commands: @escaping ManifestCommand.Runner = ManifestCommand.unavailable,
        sql: @escaping ManifestSQL.Runner = ManifestSQL.unavailable
    ) throws(ManifestError) -> MigrationManifest {
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw ManifestError(path: path, problems: [.init(field: "file", message: "is a directory, not a manifest file")])
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw ManifestError(path: path, problems: [.init(field: "file", message: "cannot be read (\(error.localizedDescription))")])
        }
        return try parse(data, path: path, folder: url.deletingLastPathComponent(), commands: commands, sql: sql)
    }

    /// Checks manifest `data`; `run` commands will run in `folder`.
    public static func parse(
        _ data: Data, path: String, folder: URL, commands: @escaping ManifestCommand.Runner = ManifestCommand.unavailable,
        sql: @escaping ManifestSQL.Runner = ManifestSQL.unavailable
    ) throws(ManifestError) -> MigrationManifest {
        let json: Any
        do { json = try JSONSerialization.jsonObject(with: data) } catch {
            throw ManifestError(path: path, problems: [.init(field: "file", message: "is not valid JSON (\(describe(error)))")])
        }
        if let problem = StrictJSON.problem(in: data) {
            throw ManifestError(path: path, problems: [.init(field: "file", message: "is not strict JSON: \(problem)")])
        }
        var reader = ManifestReader(folder: folder, commands: commands, sql: sql)
        let app = reader.read(json)
        guard reader.problems.isEmpty, let app else { throw ManifestError(path: path, problems: reader.problems) }
        return app
    }

    private static func describe(_ error: Error) -> String {
        (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? error.localizedDescription
    }
}
