import Foundation
import MigrationCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a command's output pipe on its own thread into a ``CappedOutput``, until every
/// writer has closed it or the reader is told to stop.
///
/// ```swift
/// let reader = try OutputReader(descriptor: pipeReadEnd, output: CappedOutput { print($0) })
/// // … the command runs and exits …
/// let output = reader.finish()   // closes the descriptor
/// ```
final class OutputReader: @unchecked Sendable {
    private let descriptor: Int32
    // Safe: `output` is touched by the reading thread only, and by `finish` only after that
    // thread has signalled `done`.
    private var output: CappedOutput
    private let stopping = Locked(false)
    private let done = DispatchSemaphore(value: 0)

    /// Starts reading `descriptor` on a thread of its own.
    /// - Throws: ``DetachedThread/StartFailure`` when the system starts no thread; nothing
    ///   reads the pipe then, and the caller closes it.
    init(descriptor: Int32, output: CappedOutput) throws(DetachedThread.StartFailure) {
        self.descriptor = descriptor
        self.output = output
        try DetachedThread.start(name: "command output") { [self] in
            readUntilClosed()
            done.signal()
        }
    }

    /// Waits until the pipe is closed by every writer, or, when a process that left the
    /// command's group still holds it open, until 50 ms pass without output; then closes it.
    func finish() -> CappedOutput {
        stopping.withLock { $0 = true }
        done.wait()
        close(descriptor)
        output.finish()
        return output
    }

    private func readUntilClosed() {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&poller, 1, 50)
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 {
                if stopping.value { return }
                continue
            }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return }
            buffer.withUnsafeBytes { output.append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
    }
}
