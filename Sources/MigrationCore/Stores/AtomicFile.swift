import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whole-file replacement that never leaves a half-written file behind.
enum AtomicFile {
    struct WriteError: Error, CustomStringConvertible {
        let description: String
    }

    /// Writes `bytes` zero bytes to the temporary file `replace` would use, then removes it, and
    /// checks that the disk has `room` bytes free: whether a replacement of that size can be
    /// written now.
    static func probe(_ url: URL, bytes: Int, room: Int) throws(WriteError) {
        let (descriptor, temporary) = try createTemporary(for: url, mode: 0o600)
        defer {
            close(descriptor)
            unlink(temporary)
        }
        if let failure = writeAll(Data(count: bytes), to: descriptor, path: temporary) { throw WriteError(description: failure) }
        var disk = statvfs()
        if fstatvfs(descriptor, &disk) == 0, Int(disk.f_bavail) * Int(disk.f_frsize) < room {
            throw WriteError(description: "the disk has \(Int(disk.f_bavail) * Int(disk.f_frsize)) bytes free; the records need \(room)")
        }
    }

    /// Writes `data` to `<folder>/.<name>.tmp`, flushes it, renames it over `url` and flushes
    /// the folder. The new file keeps the old one's permissions (a preferences plist's 0600),
    /// from the moment it is created. On failure the temporary file is removed and `url` is
    /// untouched. Callers hold the store's lock, so the temporary name is never shared.
    static func replace(_ url: URL, with data: Data) throws(WriteError) {
        let folder = url.deletingLastPathComponent().path
        var existing = stat()
        let exists = stat(url.path, &existing) == 0
        let (descriptor, temporary) = try createTemporary(for: url, mode: exists ? existing.st_mode & 0o777 : 0o644)
        var failure = writeAll(data, to: descriptor, path: temporary)
        if failure == nil, exists, fchmod(descriptor, existing.st_mode & 0o7777) != 0 {
            failure = "chmod \(temporary): \(errnoText())"
        }
        if failure == nil, fsync(descriptor) != 0 { failure = "fsync \(temporary): \(errnoText())" }
        close(descriptor)
        if failure == nil, rename(temporary, url.path) != 0 { failure = "rename to \(url.path): \(errnoText())" }
        if let failure {
            unlink(temporary)
            throw WriteError(description: failure)
        }
        let folderDescriptor = open(folder, O_RDONLY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }

    /// `<folder>/.<name>.tmp`: where a replacement of `url` is written before it is renamed over it.
    static func temporaryPath(for url: URL) -> String {
        url.deletingLastPathComponent().path + "/." + url.lastPathComponent + ".tmp"
    }

    /// Creates `<folder>/.<name>.tmp`, with `mode` (less the umask), exclusively: never through
    /// a symbolic link and never over a file that is there, so a link or file another user
    /// planted at the name is neither written, truncated nor given this file's mode. One of this
    /// user's own that an interrupted write left behind is removed first; anything else there
    /// is named in the error (see ``SideFile``) and left alone.
    private static func createTemporary(for url: URL, mode: mode_t) throws(WriteError) -> (descriptor: Int32, path: String) {
        let path = temporaryPath(for: url)
        var removedLeftover = false
        while true {
            let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
            if descriptor >= 0 { return (descriptor, path) }
            let code = errno
            if code == EEXIST, let obstacle = SideFile.obstacle(at: path) { throw WriteError(description: obstacle) }
            guard code == EEXIST, !removedLeftover else { throw WriteError(description: "create \(path): \(errnoText(code))") }
            unlink(path)
            removedLeftover = true
        }
    }

    /// Writes all of `data`; returns what went wrong, if anything.
    static func writeAll(_ data: Data, to descriptor: Int32, path: String) -> String? {
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return "write \(path): \(errnoText())"
                }
                offset += written
            }
            return nil
        }
    }
}
