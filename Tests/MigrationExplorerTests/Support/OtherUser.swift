import Foundation

/// A user who may read but not write what a test made: `nobody`, through `setpriv`, when the
/// tests run as root (root writes any file whatever its mode); the tests' own user otherwise,
/// the files then made read-only by their mode alone.
enum OtherUser {
    static let isRoot = geteuid() == 0
    static let uid: uid_t = 65534

    /// Runs the built binary as that user.
    static func run(_ arguments: [String], in folder: URL) throws -> Executable.Result {
        let (binary, words) = command(arguments)
        return try Executable.run(words, in: folder, binary: binary)
    }

    /// The binary and arguments that run `arguments` as that user.
    static func command(_ arguments: [String]) -> (binary: URL, arguments: [String]) {
        guard isRoot else { return (Executable.url, arguments) }
        return (URL(fileURLWithPath: "/usr/bin/setpriv"),
                ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", Executable.url.path] + arguments)
    }

    /// Gives `url` to that user (as root), with `mode`.
    static func own(_ url: URL, mode: Int) throws {
        if isRoot { try FileManager.default.setAttributes([.ownerAccountID: NSNumber(value: uid)], ofItemAtPath: url.path) }
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
    }

    /// Makes `folder` one that user may read but not write: another user's (root's) folder,
    /// or, not as root, a folder without write permission.
    static func refuseWrites(in folder: URL) throws {
        try FileManager.default.setAttributes([.posixPermissions: isRoot ? 0o755 : 0o555], ofItemAtPath: folder.path)
    }
}
