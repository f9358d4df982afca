import MigrationCore

/// Records what a change stream reports, from a task of its own, until ``stop()`` (or the
/// recorder goes): the way the explorer's loop subscribes to a source.
///
/// ```swift
/// let recorder = ChangeRecorder(try FileWatch(files: [file]).changes())
/// defer { recorder.stop() }
/// #expect(await waitUntil(timeout: 1) { recorder.count == 1 })
/// ```
public final class ChangeRecorder<Element: Sendable>: Sendable {
    private let seen: Locked<[Element]>
    private let task: Task<Void, Never>

    public init<Source: AsyncSequence & Sendable>(_ source: Source) where Source.Element == Element, Source.Failure == Never {
        let seen = Locked<[Element]>([])
        self.seen = seen
        // High priority: a full test run's synchronous tests, which wait on the pool's
        // threads of default priority, would otherwise hold the recording back.
        task = Task(priority: .high) {
            for await element in source { seen.withLock { $0.append(element) } }
        }
    }

    deinit { task.cancel() }

    public var events: [Element] { seen.value }
    public var count: Int { seen.withLock { $0.count } }

    /// Cancels the subscribing task, which ends the source.
    public func stop() { task.cancel() }
}
