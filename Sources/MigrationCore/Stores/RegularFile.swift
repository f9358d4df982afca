import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file that must be a regular one (a store, a manifest) without ever waiting on what
/// is not: it is opened without blocking, so a FIFO neither waits for a writer nor is read, and
/// a device, a directory or a FIFO is refused by what `fstat` says of the open file.
///
/// ```swift
/// do { let data = try RegularFile.contents(at: "state.json") }   // nil: no such file
/// catch .notAFile(let kind) { print("state.json is \(kind), not a file") }
/// ```
package enum RegularFile {
    package enum ReadError: Error, Equatable {
        /// The path names something else than a regular file (symbolic links followed).
        case notAFile(FileKind)
        /// The file could not be opened or read: the system's reason.
        case unreadable(String)

        /// The reason, for the file at `path`: "/srv/state.json is a FIFO (named pipe), not a file".
        package func reason(for path: String) -> String {
            switch self {
            case .notAFile(let kind): "\(path) is \(kind), not a file"
            case .unreadable(let why): why
            }
        }
    }

    /// The bytes of the file at `path`; `nil` when there is no such file.
    package static func contents(at path: String) throws(ReadError) -> Data? {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw .unreadable(errnoText())
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .unreadable(errnoText()) }
        let kind = FileKind(mode: info.st_mode)
        guard kind == .regularFile else { throw .notAFile(kind) }
        // Sized by `fstat` (and a byte to see the end), so a file is read in one call; grown
        // only for one that grows meanwhile.
        var data = Data(count: Int(info.st_size) + 1)
        var length = 0
        while true {
            if length == data.count { data.count += max(64 * 1024, length) }
            let count = data.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + length, $0.count - length) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .unreadable(errnoText()) }
            if count == 0 {
                data.count = length
                return data
            }
            length += count
        }
    }
}
