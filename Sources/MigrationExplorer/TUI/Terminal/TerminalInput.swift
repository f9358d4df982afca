import MigrationCore
import Foundation

/// The terminal's input as a subscription of the loop: a thread of its own blocks until a key,
/// a resize or a termination signal may be waiting (``TerminalReadiness``), posts
/// ``Mailbox/Input/terminalReady``, and waits for the loop to have read the terminal before it
/// watches again. The loop alone reads keys and draws (ncurses is not thread-safe).
///
/// ```swift
/// let input = TerminalInput(watching: terminal.readiness, mailbox: mailbox)
/// // on .terminalReady: read every waiting key, then
/// input.watchAgain()
/// ```
final class TerminalInput: Sendable {
    private let read = DispatchSemaphore(value: 0)
    private let stopped = Locked(false)

    init(watching readiness: any TerminalReadiness, mailbox: Mailbox) {
        let (read, stopped) = (read, stopped)
        Thread.detachNewThread {
            while !stopped.value, readiness.wait() {
                mailbox.post(.terminalReady)
                read.wait()
            }
        }
    }

    /// The loop has read what was waiting: the thread watches again.
    func watchAgain() { read.signal() }

    /// The thread ends, once the terminal's readiness stops waiting too (``Terminal/close()``).
    func stop() {
        stopped.withLock { $0 = true }
        read.signal()
    }
}
