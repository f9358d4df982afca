import Foundation
import MigrationTestSupport

/// Copies the files git tracks under `folder` of `repository` into `destination`, keeping their
/// paths below `folder` and their modes: what a fresh clone holds, never what a run left in
/// the work tree (a store, data made on first use, a lock, a marker file).
///
/// ```swift
/// try copyTrackedFiles(of: "Examples/notes", in: repository, to: scratch.appendingPathComponent("notes"))
/// ```
/// - Throws: when git cannot list the files (not a clone, no git), or one cannot be copied.
func copyTrackedFiles(of folder: String, in repository: URL, to destination: URL) throws {
    let listing = SpawnedProcess()
    listing.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    listing.arguments = ["git", "-C", repository.path, "ls-files", "-z", "--", folder]
    let output = Pipe(), errors = Pipe()
    listing.standardOutput = output
    listing.standardError = errors
    listing.standardInput = FileHandle.nullDevice
    try listing.run()
    let names = output.fileHandleForReading.readDataToEndOfFile()
    let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    listing.waitUntilExit()
    guard listing.terminationStatus == 0 else {
        throw TrackedFilesError(description: "git ls-files \(folder) in \(repository.path) exited with \(listing.terminationStatus): \(said)")
    }
    let paths = names.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
    guard !paths.isEmpty else { throw TrackedFilesError(description: "git tracks no file under \(folder) in \(repository.path)") }
    for path in paths {
        let relative = String(path.dropFirst(folder.count).drop { $0 == "/" })
        let target = destination.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: repository.appendingPathComponent(path), to: target)
    }
}

/// The tracked files could not be listed or copied.
struct TrackedFilesError: Error, CustomStringConvertible {
    let description: String
}
