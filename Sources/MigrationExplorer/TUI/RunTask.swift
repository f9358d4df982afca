import MigrationCore

/// A run the terminal UI's loop started: the explorer's run on a task of its own, whose
/// updates (the walk's events, its commands' starts and output lines, its end with the plan as
/// it then stands, and what the store then allows) wait in an inbox until the loop takes them
/// as events; `onUpdate` tells when the inbox gets some. It neither reads keys nor draws;
/// stopping it is the loop's effect too.
///
/// ```swift
/// let run = RunTask(explorer: explorer, onUpdate: { mailbox.post(.runUpdated) })
/// for update in run.takeUpdates() { _ = session.handle(.run(update), size: size) }
/// run.cancel()      // Esc: the running command's group is ended, nothing after it starts
/// ```
final class RunTask: Sendable {
    private let inbox: Locked<[RunUpdate]>
    private let cancellation: RunCancellation
    private let task: Task<Void, any Error>

    /// Starts `explorer`'s run with the current ``CommandSettings``, stopped by a cancellation
    /// of its own; `onUpdate` is called when updates arrive in an empty inbox.
    init(explorer: Explorer, onUpdate: @escaping @Sendable () -> Void = {}) {
        let inbox = Locked<[RunUpdate]>([]), cancellation = RunCancellation()
        let post: @Sendable (RunUpdate) -> Void = { update in
            let wasEmpty = inbox.withLock { updates in
                defer { updates.append(update) }
                return updates.isEmpty
            }
            if wasEmpty { onUpdate() }
        }
        var settings = CommandSettings.current
        settings.cancellation = cancellation
        settings.onOutput = { line in post(.output(line)) }
        settings.onCommandStart = { title in post(.commandStarted(title, at: .now)) }
        let settingsForRun = settings
        let work: @Sendable () async -> Void = {
            let report: Result<RunReport, RunFailure>
            do {
                report = .success(try await CommandSettings.$current.withValue(settingsForRun) {
                    try await explorer.run { event in post(RunUpdate(event)) }
                })
            } catch {
                report = .failure(RunFailure(error))
            }
            let plan = Result { try explorer.plan() }.mapError(RunFailure.init)
            post(.ended(RunEnding(report: report, plan: plan, facts: StoreFacts(reading: explorer))))
        }
        // On a thread of the run's own, not the concurrency pool: a pool another part of the
        // process keeps busy must not hold up the run, nor the key that cancels it.
        task = OwnThread.task(named: "terminal UI run") { await work() }
        (self.inbox, self.cancellation) = (inbox, cancellation)
    }

    /// The updates since the last call, oldest first; the last one of the run is ``RunUpdate/ended(_:)``.
    func takeUpdates() -> [RunUpdate] {
        inbox.withLock { updates in
            defer { updates = [] }
            return updates
        }
    }

    /// Stops the run: the running command's group is ended (SIGTERM, then SIGKILL after the
    /// grace period), a Swift body sees `Task.isCancelled`, and nothing after it starts.
    func cancel() { cancellation.cancel() }

    /// Gives up waiting for a cancelled run: the running command's group is killed at once.
    func abandon() {
        cancellation.cancel()
        cancellation.abandon()
    }

    /// Returns once the run has ended and its last update is in the inbox.
    func finish() async { _ = await task.result }
}
