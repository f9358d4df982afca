import Foundation

/// What `plan --watch` follows, as one stream: the store's changes (``RealStore/changes()``)
/// and the manifest's saves (a ``FileWatch`` of its file and folder). The stream ends once
/// both have ended, or when the task iterating it is cancelled.
///
/// ```swift
/// for await change in WatchedChanges.merging(store: try explorer.storeChanges(), manifest: saves) {
///     if case .manifestSaved = change { reloadManifest() }
/// }
/// ```
enum WatchedChange: Sendable, Equatable {
    /// The store reported a change, or that it is not followed for now, or again.
    case store(StoreChange)
    /// The manifest's file was written, replaced or deleted.
    case manifestSaved
}

enum WatchedChanges {
    /// `store`'s and `manifest`'s events, as they come; `nil`: not followed.
    static func merging(store: AsyncStream<StoreChange>?, manifest: AsyncStream<FileChange>?) -> AsyncStream<WatchedChange> {
        AsyncStream { continuation in
            let relay = Task {
                await withTaskGroup(of: Void.self) { group in
                    if let store {
                        group.addTask { for await change in store { continuation.yield(.store(change)) } }
                    }
                    if let manifest {
                        group.addTask { for await _ in manifest { continuation.yield(.manifestSaved) } }
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in relay.cancel() }
        }
    }
}
