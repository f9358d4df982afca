import Foundation

/// ``TerminalReadiness`` of a real terminal: `poll(2)` on standard input and the signal pipes
/// (``TerminationSignals``, ``ResizeSignal``), without a timeout; ``stop()`` wakes it for good.
///
/// ```swift
/// let readiness = DescriptorReadiness(watching: [STDIN_FILENO, TerminationSignals.pipe.readEnd])
/// while readiness.wait() { /* read the terminal */ }
/// ```
final class DescriptorReadiness: TerminalReadiness {
    private let descriptors: [Int32]
    private let stopping = SignalPipe()

    init(watching descriptors: [Int32]) {
        self.descriptors = descriptors.filter { $0 >= 0 }
    }

    func wait() -> Bool {
        var watched = (descriptors + [stopping.readEnd]).map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        while true {
            let ready = poll(&watched, nfds_t(watched.count), -1)
            if ready < 0, errno == EINTR { continue }
            if ready < 0 || watched.last?.revents != 0 { return false }
            // A resize is read by ncurses as a key; its bytes only woke this wait.
            if watched.contains(where: { $0.fd == ResizeSignal.pipe.readEnd && $0.revents != 0 }) { ResizeSignal.pipe.drain() }
            return true
        }
    }

    /// Wakes every wait, now and later, with `false`.
    func stop() { stopping.note(0) }
}
