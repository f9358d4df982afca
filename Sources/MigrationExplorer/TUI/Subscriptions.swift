import Foundation
import MigrationCore

/// What the terminal UI's loop follows besides the terminal: another process's changes to the
/// store (``Explorer/storeChanges()``) and the manifest's saves (a ``FileWatch`` of it), each
/// a task on a thread of its own (a busy concurrency pool does not hold up a change, and a
/// listener that waits for the server holds none of the pool's threads) that posts to the
/// ``Mailbox`` and never reads the store or draws; the loop reads the store again through an
/// effect. Stopped with the loop, beside ``TerminalInput``.
///
/// ```swift
/// let subscriptions = Subscriptions(explorer: session.explorer, manifest: session.manifest, mailbox: mailbox)
/// defer { subscriptions.stop() }
/// ```
struct Subscriptions {
    private let tasks: [Task<Void, any Error>]

    init(explorer: Explorer, manifest: FollowedManifest?, mailbox: Mailbox) {
        var tasks = [Self.follow(explorer, mailbox: mailbox)]
        if let manifest { tasks.append(Self.follow(manifest, mailbox: mailbox)) }
        self.tasks = tasks
    }

    /// Ends every subscription: their watches and connections close.
    func stop() {
        for task in tasks { task.cancel() }
    }

    private static func follow(_ explorer: Explorer, mailbox: Mailbox) -> Task<Void, any Error> {
        OwnThread.task(named: "following the store") {
            do {
                guard let changes = try explorer.storeChanges() else { return }
                for await change in changes { mailbox.post(.event(.storeChanged(change))) }
            } catch {
                mailbox.post(.event(.storeChanged(.interrupted(reason: String(describing: error)))))
            }
        }
    }

    private static func follow(_ manifest: FollowedManifest, mailbox: Mailbox) -> Task<Void, any Error> {
        OwnThread.task(named: "following the manifest") {
            do {
                for await _ in try FileWatch(files: [URL(fileURLWithPath: manifest.path)]).changes() {
                    if let outcome = manifest.changedSinceShown() { mailbox.post(.event(.manifest(outcome))) }
                }
            } catch {
                mailbox.post(.event(.storeChanged(.interrupted(reason: "\(manifest.path) cannot be watched (\(error))"))))
            }
        }
    }
}
