import Foundation

/// What a real store reports of another process's changes (``RealStore/changes()``): each
/// backend hears them its own way (a file's and its folder's watch, SQLite's `data_version`,
/// PostgreSQL's `LISTEN`), and the explorer re-reads the store to show what changed.
///
/// ```swift
/// for await change in try store.changes() {
///     switch change {
///     case .changed(let writer): print("changed", writer.map { "by \($0)" } ?? "")
///     case .interrupted(let reason): print("not followed for now: \(reason)")
///     case .resumed: print("followed again")
///     }
/// }
/// ```
public enum StoreChange: Sendable, Equatable {
    /// What the store holds may have changed; `writer` names who changed it where the store
    /// knows ("web-3, pid 4121" for PostgreSQL), as text the store did not vet.
    case changed(writer: String?)
    /// Changes cannot be heard for now, as `reason` says (a lost connection, the folder
    /// gone); the source keeps trying where it can.
    case interrupted(reason: String)
    /// Changes are heard again after ``interrupted(reason:)``; what was missed meanwhile
    /// calls for a re-read, as a change does.
    case resumed
}

extension AsyncStream where Element == StoreChange {
    /// `source`'s events as store changes, `change` saying which event is which change
    /// (`nil`: none); the relay ends with `source`, or when the stream's iterating task is
    /// cancelled.
    static func relaying<Source: AsyncSequence & Sendable>(
        _ source: Source, _ change: @escaping @Sendable (Source.Element) -> StoreChange?
    ) -> AsyncStream<StoreChange> where Source.Element: Sendable {
        AsyncStream { continuation in
            let relay = Task {
                do {
                    for try await event in source {
                        if let change = change(event) { continuation.yield(change) }
                    }
                } catch {}
                continuation.finish()
            }
            continuation.onTermination = { _ in relay.cancel() }
        }
    }
}

extension FileWatch {
    /// The watch's bursts as store changes: each a change of unknown writer; the folder
    /// gone ends the watch with ``StoreChange/interrupted(reason:)``.
    func storeChanges() throws -> AsyncStream<StoreChange> {
        let folder = files.first?.deletingLastPathComponent().path ?? ""
        return .relaying(try changes()) { change in
            change.watchEnded ? .interrupted(reason: "\(folder) was deleted or moved; changes are no longer followed") : .changed(writer: nil)
        }
    }
}
