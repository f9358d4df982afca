import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a path names, as the kernel tells: a store or a manifest must be a regular file, and
/// anything else is named for what it is, never read (a FIFO waits for a writer, `/dev/zero`
/// never ends) nor replaced.
///
/// ```swift
/// FileKind.of("/dev/null")                                 // .characterDevice
/// "/dev/null is \(FileKind.characterDevice), not a file"   // "/dev/null is a character device, not a file"
/// ```
package enum FileKind: Sendable, Equatable, CustomStringConvertible {
    case regularFile, directory, symbolicLink, fifo, characterDevice, blockDevice, socket, other

    /// The kind a `stat` mode (`st_mode`) says.
    package init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regularFile
        case S_IFDIR: self = .directory
        case S_IFLNK: self = .symbolicLink
        case S_IFIFO: self = .fifo
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFSOCK: self = .socket
        default: self = .other
        }
    }

    /// What `path` names, symbolic links followed; `nil` when nothing can be found there (no
    /// such file, a dangling link, a folder that cannot be searched).
    package static func of(_ path: String) -> FileKind? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileKind(mode: info.st_mode)
    }

    /// "a FIFO (named pipe)", to follow "is".
    package var description: String {
        switch self {
        case .regularFile: "a file"
        case .directory: "a directory"
        case .symbolicLink: "a symbolic link"
        case .fifo: "a FIFO (named pipe)"
        case .characterDevice: "a character device"
        case .blockDevice: "a block device"
        case .socket: "a socket"
        case .other: "a special file"
        }
    }
}
