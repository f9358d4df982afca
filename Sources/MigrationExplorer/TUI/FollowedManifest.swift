import Foundation
import MigrationCore
import MigrationManifest

/// The manifest the terminal UI follows (`--manifest`), shared by the loop's subscription,
/// which reads it again on each save its ``FileWatch`` reports, and the session, which checks
/// it before a run starts: each save is read once, by whichever sees it first, and a save
/// that leaves the file's bytes as they were is no change.
///
/// ```swift
/// let manifest = FollowedManifest(path: "manifest.json", shown: explorer.app.registry)
/// if let outcome = manifest.changedSinceShown() { session.handle(.manifest(outcome), size: size) }
/// ```
package final class FollowedManifest: @unchecked Sendable {
    package let path: String
    // Safe: both are only touched while `lock` is held, which a read of the file holds too,
    // so that each save is read once.
    private let lock = RecursiveLock()
    private var follower: ManifestFollower
    /// A hash of the file's bytes when last read, valid or not (`nil`: it could not be read):
    /// a large manifest's bytes are not kept.
    private var lastRead: Int?

    /// Follows the manifest at `path`, whose migrations `registry` (read from it) are shown.
    package init(path: String, shown registry: MigrationRegistry) {
        self.path = path
        lastRead = Self.hash(of: path)
        follower = ManifestFollower(path: path, shown: registry)
    }

    /// The manifest read again, when its file is not as last read: the new one to show, or
    /// its problem (the last good one stays); `nil` when it has not changed.
    package func changedSinceShown() -> ManifestFollower.Outcome? {
        lock.withLock {
            let bytes = Self.hash(of: path)
            guard bytes == nil || bytes != lastRead else { return nil }
            lastRead = bytes
            return follower.reread(width: Self.summaryWidth)
        }
    }

    /// A hash of the file's bytes (the same bytes, the same hash, within this process); `nil`
    /// when it cannot be read.
    private static func hash(of path: String) -> Int? {
        FileManager.default.contents(atPath: path).map { bytes in
            var hasher = Hasher()
            // Every byte: `Data`'s own hash covers only its count and first bytes.
            bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
            return hasher.finalize()
        }
    }

    /// The widest a summary of a save is; the message line wraps or cuts it to the terminal.
    private static let summaryWidth = 200
}
