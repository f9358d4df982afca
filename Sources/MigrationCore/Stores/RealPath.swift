import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file a path really names, with every symbolic link resolved, including a link to a file
/// that does not exist yet: so that every path to one file shares one lock and one record, and
/// a write replaces the file itself, not the link.
enum RealPath {
    static func of(_ path: String) -> String {
        var current = absolute(path)
        for _ in 0..<40 {
            if let resolved = realpath(current, nil) {
                defer { free(resolved) }
                return String(cString: resolved)
            }
            guard let target = linkTarget(current) else { break }
            current = target.hasPrefix("/") ? target : directory(of: current) + "/" + target
        }
        let folder = directory(of: current)
        let name = String(current[current.index(after: current.lastIndex(of: "/")!)...])
        guard let resolved = realpath(folder, nil) else { return current }
        defer { free(resolved) }
        let real = String(cString: resolved)
        return (real == "/" ? "" : real) + "/" + name
    }

    private static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }

    private static func directory(of path: String) -> String {
        let slash = path.lastIndex(of: "/")!
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
