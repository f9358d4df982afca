import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether this process may write a store's files, and if not, why, in words a person can act
/// on. It asks the kernel (`faccessat` with the effective user), so permissions, ACLs,
/// read-only file systems and immutable files all count; it takes no lock, changes no byte and
/// leaves nothing behind.
///
/// - Warning: it never opens a store's existing files: closing any descriptor of a file drops
///   every POSIX lock the process holds on it, and SQLite keeps such locks on its database and
///   its `-shm` file while a connection is open. Another process that then finds the `-shm`
///   unlocked rebuilds it under this one's memory map, which ends this one with a bus error.
///
/// ```swift
/// WriteAccess.problem(writing: "/srv/notes/state.json", what: "the file")
/// // "permission denied: this user (uid 65534) may not write the file /srv/notes/state.json"
/// ```
package enum WriteAccess {
    /// Why the existing file at `path` cannot be written; `nil` when it can, or when there is no
    /// file there (creating it is ``problem(creatingIn:)``'s question).
    package static func problem(writing path: String, what: String) -> String? {
        guard faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) != 0 else { return nil }
        let code = errno
        return code == ENOENT ? nil : reason(code, "\(what) \(path)")
    }

    /// Why no file can be created in `folder`: creates an empty file of a name no other
    /// process uses and removes it again.
    package static func problem(creatingIn folder: String) -> String? {
        let probe = folder + "/.write-probe-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return reason(errno, "the folder \(folder)") }
        close(descriptor)
        unlink(probe)
        return nil
    }

    /// The first problem among `files` (each existing one must be writable) and then
    /// their `folder` (a file must be creatable in it); `nil` when everything can be written.
    package static func problem(files: [(path: String, what: String)], folder: String) -> String? {
        for file in files {
            if let problem = problem(writing: file.path, what: file.what) { return problem }
        }
        return problem(creatingIn: folder)
    }

    /// `code` (an `errno`) as a reason that names `subject` ("the file /srv/notes/state.json").
    package static func reason(_ code: Int32, _ subject: String) -> String {
        switch code {
        case EACCES: "permission denied: this user (uid \(geteuid())) may not write \(subject)"
        case EROFS: "\(subject) is on a read-only file system"
        case EPERM: "\(subject) may not be changed (\(errnoText(code)); an immutable file or folder?)"
        default: "\(subject): \(errnoText(code))"
        }
    }
}
