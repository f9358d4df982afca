import Foundation
import MigrationManifest

/// Follows a manifest file through its saves: each ``reread(width:)`` (on each change a
/// ``FileWatch`` of the file reports) reads it again; a valid manifest becomes the one shown,
/// with a line saying what changed; an unreadable or invalid one leaves the last good one in
/// place, and its problem (with the line and column where the JSON is broken) is kept until
/// a save fixes it.
///
/// ```swift
/// var follower = ManifestFollower(path: "manifest.json", manifest: shown)
/// for await _ in try FileWatch(files: [URL(fileURLWithPath: "manifest.json")]).changes() {
///     switch follower.reread(width: 80) {
///     case .updated(let manifest, let summary): show(manifest, saying: summary)
///     case .broken(let problem): markOutOfDate(problem)
///     }
/// }
/// ```
public struct ManifestFollower: Sendable {
    /// What a reread found.
    public enum Outcome: Sendable {
        /// A valid manifest: the one to show now, and what changed since the last good one
        /// ("manifest: saved, no migration changed" when nothing it lists did). A problem the
        /// file had is gone.
        case updated(MigrationManifest, summary: String)
        /// The manifest cannot be read or is invalid; the last good one stays.
        case broken(ManifestError)
    }

    public let path: String
    /// The last manifest read without a problem: the one shown.
    public private(set) var manifest: MigrationManifest
    /// The problem of the file as it is now, while it has one.
    public private(set) var problem: ManifestError?

    /// Follows the manifest at `path`, `manifest` (read from it) shown now.
    public init(path: String, manifest: MigrationManifest) {
        self.path = path
        self.manifest = manifest
    }

    /// Reads the file again; the summary of an update is cut to `width`.
    public mutating func reread(width: Int) -> Outcome {
        let read: MigrationManifest
        do { read = try ExplorerApp.loadManifest(path: path) } catch {
            problem = error
            return .broken(error)
        }
        let summary = ChangeSummary.manifest(from: manifest.registry, to: read.registry, width: width)
        problem = nil
        manifest = read
        return .updated(read, summary: summary)
    }
}
