import Foundation
import MigrationTestSupport

/// A user who may read but not write what a test made: `nobody`, through `setpriv`, when the
/// tests run as root (root writes any file whatever its mode); the tests' own user otherwise,
/// the files then made read-only by their mode alone.
enum OtherUser {
    static let isRoot = geteuid() == 0
    static let uid: uid_t = 65534

    /// Runs the built binary as that user.
    static func run(_ arguments: [String], in folder: URL) async throws -> Executable.Result {
        let (binary, words) = command(arguments)
        return try await Executable.run(words, in: folder, binary: binary)
    }

    /// Runs the built binary as that user, giving up after `seconds`: `nil`, the process
    /// killed, when it has not ended by then.
    static func run(_ arguments: [String], in folder: URL, endingWithin seconds: Double) async throws -> Executable.Result? {
        let (binary, words) = command(arguments)
        return try await Executable.run(words, in: folder, endingWithin: seconds, binary: binary)
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

/// A file even root may not write, for a test inside the test process: `chattr +i` as root
/// (where the system lets root set it), mode 0444 otherwise.
enum ImmutableFile {
    /// Whether a file can be made so here.
    static let canBeMade: Bool = {
        guard OtherUser.isRoot else { return true }
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("immutable-probe-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: probe) }
        guard FileManager.default.createFile(atPath: probe.path, contents: Data()), chattr("+i", probe) else { return false }
        return chattr("-i", probe)
    }()

    /// Makes `url` read-only for this process; `undo` makes it writable again (before it is removed).
    static func make(_ url: URL) throws {
        if OtherUser.isRoot {
            guard chattr("+i", url) else { throw CocoaError(.fileWriteNoPermission) }
        } else {
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: url.path)
        }
    }

    static func undo(_ url: URL) {
        if OtherUser.isRoot { _ = chattr("-i", url) }
    }

    private static func chattr(_ flag: String, _ url: URL) -> Bool {
        let process = SpawnedProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chattr")
        process.arguments = [flag, url.path]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
