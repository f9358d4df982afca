import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files a store keeps beside its records under names anyone can predict (`<file>.lock`,
/// `<file>.run.lock`, `.<file>.tmp`): never reached through a symbolic link, so that in a
/// folder other users may write (mode 1777, as `/tmp`) a link planted at one of those names
/// never makes a store create, write or lock a file it points to. What is in the way is named.
///
/// ```swift
/// let descriptor = SideFile.openLock("/tmp/shared/state.json.lock", O_RDWR)
/// if descriptor < 0 { print(SideFile.openFailure("/tmp/shared/state.json.lock")) }
/// // /tmp/shared/state.json.lock is a symbolic link (to "/home/ann/notes.txt"), which a store never follows; …
/// ```
enum SideFile {
    /// Opens the lock file at `path` with `flags`, never through a symbolic link, creating it
    /// with `mode`: by default readable and writable by its owner alone, since whoever can open
    /// a lock file can `flock` it and hold every run off. Returns the descriptor, or -1 with
    /// `errno` set.
    static func openLock(_ path: String, _ flags: Int32, mode: mode_t = 0o600) -> Int32 {
        open(path, flags | O_NOFOLLOW | O_CLOEXEC | (flags & O_ACCMODE == O_RDONLY ? 0 : O_CREAT), mode)
    }

    /// Why `path` could not be opened, `code` (an `errno`) being what `open` said: what is in
    /// the way when that is a link or another's file, the system's reason otherwise.
    static func openFailure(_ path: String, _ code: Int32 = errno) -> String {
        obstacle(at: path) ?? "open \(path): \(errnoText(code))"
    }

    /// What stands at `path` that a store must not use as its own file: a symbolic link, a
    /// directory or another special file, or another user's file; `nil` when there is nothing
    /// there or a file of this user's.
    static func obstacle(at path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        let kind = FileKind(mode: info.st_mode)
        switch kind {
        case .symbolicLink:
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)).map(quoted) ?? "somewhere unreadable"
            return "\(path) is a symbolic link (to \(target)), which a store never follows; remove it if you did not make it"
        case .regularFile:
            guard info.st_uid != geteuid() else { return nil }
            return "\(path) belongs to another user (uid \(info.st_uid)) and is left alone; ask them to remove it"
        default:
            return "\(path) is \(kind), not a file"
        }
    }

    /// What another user may have planted at `path` to be followed or to hold runs off: a
    /// symbolic link, or, in a folder with the sticky bit (mode 1777, as `/tmp`), where this user
    /// could not remove it, a file of another user's. `nil` otherwise: elsewhere another user's
    /// file (a run lock a colleague left) stays usable as before.
    static func planted(at path: String) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0, let obstacle = obstacle(at: path) else { return nil }
        switch FileKind(mode: info.st_mode) {
        case .symbolicLink: return obstacle
        case .regularFile:
            var folder = stat()
            let sticky = stat((path as NSString).deletingLastPathComponent, &folder) == 0 && folder.st_mode & S_ISVTX != 0
            return sticky ? obstacle : nil
        default: return nil
        }
    }

    /// `text` another user wrote (a link's target) in quotes, each control character spelled
    /// out (`\u{1b}`), so that printing it cannot act on a terminal.
    private static func quoted(_ text: String) -> String {
        let spelled = text.unicodeScalars.map { scalar in
            scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
        }
        return "\"" + spelled.joined() + "\""
    }
}
