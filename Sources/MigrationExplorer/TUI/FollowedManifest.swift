import Foundation
import MigrationManifest

/// The manifest the terminal UI follows (`--manifest`), shared by the loop's subscription,
/// which reads it again on each save its ``FileWatch`` reports, and the session, which checks
/// it before a run starts: each save is read once, by whichever sees it first, and a save
/// that leaves the file's bytes as they were is no change.
///
/// ```swift
/// let manifest = try FollowedManifest(path: "manifest.json")
/// if let outcome = manifest.changedSinceShown() { session.handle(.manifest(outcome), size: size) }
/// ```
package final class FollowedManifest: @unchecked Sendable {
    package let path: String
    // Safe: both are only touched while `lock` is held.
    private let lock = NSLock()
    private var follower: ManifestFollower
    /// The file's bytes when last read, valid or not.
    private var lastRead: Data?

    /// Follows the manifest at `path`, as it is now the one shown.
    /// - Throws: `ManifestError` when it cannot be read or is invalid.
    package init(path: String) throws(ManifestError) {
        self.path = path
        lastRead = FileManager.default.contents(atPath: path)
        follower = ManifestFollower(path: path, manifest: try ExplorerApp.loadManifest(path: path))
    }

    /// The manifest read again, when its file is not as last read: the new one to show, or
    /// its problem (the last good one stays); `nil` when it has not changed.
    package func changedSinceShown() -> ManifestFollower.Outcome? {
        lock.withLock {
            let bytes = FileManager.default.contents(atPath: path)
            guard bytes == nil || bytes != lastRead else { return nil }
            lastRead = bytes
            return follower.reread(width: Self.summaryWidth)
        }
    }

    /// The widest a summary of a save is; the message line wraps or cuts it to the terminal.
    private static let summaryWidth = 200
}
