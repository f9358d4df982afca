import Foundation

/// Checks a `--store` or `--sqlite` path before anything touches it, so that a mistake is a
/// clear error that names the path and leaves nothing behind (no `.lock` file beside a folder).
///
/// ```swift
/// try StorePath.check("/tmp")   // "/tmp: is a directory; --store names a JSON file …"
/// ```
enum StorePath {
    static func check(_ path: String, sqlite: Bool = false) throws(CommandFailure) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            let names = sqlite ? "--sqlite names a SQLite database (created empty if missing)" : "--store names a JSON file (created by the first run)"
            throw CommandFailure(.store, "\(path): is a directory; \(names)", path: path)
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandFailure(.store, "\(path): the folder \(folder) does not exist; create it first", path: path)
        }
    }
}
