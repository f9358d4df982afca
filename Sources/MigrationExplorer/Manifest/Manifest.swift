import Foundation
import MigrationCore

/// Reads a JSON manifest into an ``ExplorerApp``, for apps whose migrations are not in Swift.
///
/// ```json
/// { "app": "Notes", "appVersion": "1.0", "appBuild": "120",
///   "migrations": [ { "version": "0.9", "title": "Add GUIDs", "run": "./scripts/add-guids.sh", "timeout": 60 },
///                   { "version": "1.0", "title": "Pin notes", "sql": "ALTER TABLE note ADD pinned INTEGER" } ],
///   "onUpdate": [ { "title": "Reset statistics", "run": "…" } ] }
/// ```
public enum Manifest {
    /// Loads and checks the manifest at `path`.
    /// - Throws: ``ManifestError`` listing every problem (unreadable file, bad JSON, unknown
    ///   field, missing title, both or neither of version/build, malformed or duplicate version,
    ///   a `timeout` that is not a positive number, a control character in a `run`).
    public static func load(path: String) throws(ManifestError) -> ExplorerApp {
        let url = URL(fileURLWithPath: path)
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw ManifestError(path: path, problems: [.init(field: "file", message: "cannot be read (\(error.localizedDescription))")])
        }
        return try parse(data, path: path, folder: url.deletingLastPathComponent())
    }

    /// Checks manifest `data`; `run` commands will run in `folder`.
    public static func parse(_ data: Data, path: String, folder: URL) throws(ManifestError) -> ExplorerApp {
        let json: Any
        do { json = try JSONSerialization.jsonObject(with: data) } catch {
            throw ManifestError(path: path, problems: [.init(field: "file", message: "is not valid JSON (\(describe(error)))")])
        }
        var reader = ManifestReader(folder: folder)
        let app = reader.read(json)
        guard reader.problems.isEmpty, let app else { throw ManifestError(path: path, problems: reader.problems) }
        return app
    }

    private static func describe(_ error: Error) -> String {
        (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? error.localizedDescription
    }
}
