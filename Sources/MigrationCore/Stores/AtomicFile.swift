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

    /// Writes `bytes` zero bytes to the temporary file `replace` would use, then removes it:
    /// whether a replacement of that size can be written now.
    static func probe(_ url: URL, bytes: Int) throws(WriteError) {
        let temporary = temporaryPath(for: url)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw WriteError(description: "create \(temporary): \(errnoText())") }
        defer {
            close(descriptor)
            unlink(temporary)
        }
        if let failure = writeAll(Data(count: bytes), to: descriptor, path: temporary) { throw WriteError(description: failure) }
    }

    /// Writes `data` to `<folder>/.<name>.tmp`, flushes it, renames it over `url` and flushes
    /// the folder. The new file keeps the old one's permissions (a preferences plist's 0600).
    /// On failure the temporary file is removed and `url` is untouched. Callers hold the
    /// store's lock, so the temporary name is never shared.
    static func replace(_ url: URL, with data: Data) throws(WriteError) {
        let folder = url.deletingLastPathComponent().path
        let temporary = temporaryPath(for: url)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw WriteError(description: "create \(temporary): \(errnoText())") }
        var failure = writeAll(data, to: descriptor, path: temporary)
        var existing = stat()
        if failure == nil, stat(url.path, &existing) == 0, fchmod(descriptor, existing.st_mode & 0o7777) != 0 {
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

    private static func temporaryPath(for url: URL) -> String {
        url.deletingLastPathComponent().path + "/." + url.lastPathComponent + ".tmp"
    }

    /// Writes all of `data`; returns what went wrong, if anything.
    private static func writeAll(_ data: Data, to descriptor: Int32, path: String) -> String? {
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
