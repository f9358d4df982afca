import Foundation
import MigrationCore
import MigrationManifest

/// Follows a manifest file through its saves: each ``reread(width:)`` (on each change a
/// ``FileWatch`` of the file reports) reads it again; a valid manifest becomes the one shown,
/// with a line saying what changed; an unreadable or invalid one leaves the last good one in
/// place, and its problem (with the line and column where the JSON is broken) is kept until
/// a save fixes it.
///
/// ```swift
/// var follower = ManifestFollower(path: "manifest.json", shown: app.registry)
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
    /// The migrations of the last manifest read without a problem: the ones shown. (Its
    /// registry alone: what a save's summary compares, without keeping a second copy of a
    /// large manifest's commands and texts.)
    public private(set) var registry: MigrationRegistry
    /// The problem of the file as it is now, while it has one.
    public private(set) var problem: ManifestError?

    /// Follows the manifest at `path`, whose migrations `registry` (read from it) are shown now.
    public init(path: String, shown registry: MigrationRegistry) {
        self.path = path
        self.registry = registry
    }

    /// Follows the manifest at `path`, `manifest` (read from it) shown now.
    @available(*, deprecated, renamed: "init(path:shown:)", message: "the follower keeps the shown registry alone")
    public init(path: String, manifest: MigrationManifest) {
        self.init(path: path, shown: manifest.registry)
    }

    /// Reads the file again; the summary of an update is cut to `width`.
    public mutating func reread(width: Int) -> Outcome {
        let read: MigrationManifest
        do { read = try ExplorerApp.loadManifest(path: path) } catch {
            problem = error
            return .broken(error)
        }
        let summary = ChangeSummary.manifest(from: registry, to: read.registry, width: width)
        problem = nil
        registry = read.registry
        return .updated(read, summary: summary)
    }
}
