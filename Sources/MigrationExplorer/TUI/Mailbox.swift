/// Where the terminal UI's event sources post what wakes its loop, which awaits them one at a
/// time and does nothing in between: the terminal's input (``TerminalInput``), the answers of
/// effects, a run's updates, the clock while a run goes on. A new source (a store's change
/// notifications, say) is a subscription: a task or thread started beside the others in
/// ``TerminalApp/run()`` that posts ``Input/event(_:)`` here, and a case in ``Update``.
///
/// ```swift
/// let (inbox, mailbox) = Mailbox.make()
/// session.storeWork.start(.dryRun, on: explorer) { mailbox.post(.event(.store($0))) }
/// for await input in inbox { … }
/// ```
struct Mailbox: Sendable {
    /// What wakes the loop.
    enum Input: Sendable {
        /// A key, a resize or a termination signal may be waiting: the loop reads the terminal.
        case terminalReady
        /// An event for ``Update``: a store's answer, a tick.
        case event(Event)
        /// The run in progress has updates waiting (``RunTask/takeUpdates()``).
        case runUpdated
        /// A deadline passed (leaving while a cancelled run does not stop).
        case deadline
    }

    private let continuation: AsyncStream<Input>.Continuation

    /// A mailbox, and the inbox the loop awaits.
    static func make() -> (inbox: AsyncStream<Input>, mailbox: Mailbox) {
        let (stream, continuation) = AsyncStream.makeStream(of: Input.self)
        return (stream, Mailbox(continuation: continuation))
    }

    func post(_ input: Input) { continuation.yield(input) }

    /// The loop is over: what is posted from now on is dropped.
    func close() { continuation.finish() }
}
