import Foundation
import MigrationCore

/// Checks a real store's path before anything touches it, so that a mistake is a clear error
/// that names the path and what is there (a folder, a FIFO, a device) and leaves nothing
/// behind (no `.lock` file beside a folder).
///
/// ```swift
/// try StorePath.check(.jsonFile("/tmp"), option: "--store")   // "/tmp: is a directory; --store names a JSON file …"
/// ```
enum StorePath {
    static func check(_ location: StoreLocation, option: String) throws(CommandFailure) {
        let path = location.path
        if let kind = FileKind.of(path), kind != .regularFile {
            throw CommandFailure(.store, "\(path): is \(kind); \(option) names \(location.backend.expected)", path: path)
        }
        // Through a symbolic link, the folder that must exist is its destination's.
        let url = URL(fileURLWithPath: path)
        let destination = (try? FileManager.default.destinationOfSymbolicLink(atPath: path))
            .map { URL(fileURLWithPath: $0, relativeTo: url.deletingLastPathComponent()) } ?? url
        let folder = destination.deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandFailure(.store, "\(path): the folder \(folder) does not exist; create it first", path: path)
        }
    }
}
