import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether a process with this id is alive (a zombie counts as gone).
func isAlive(_ pid: pid_t) -> Bool {
    guard kill(pid, 0) == 0 else { return false }
    #if os(Linux)
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    return !status.contains("State:\tZ")
    #else
    return true
    #endif
}

extension URL {
    /// The file's text, or "" when it does not exist yet.
    var textIfAny: String { (try? read()) ?? "" }
}

/// The first line another process writes to the FIFO at `fifo`: a handshake, waited for with
/// `poll(2)` (never a sleep), `nil` when no writer opened it and wrote a line within `seconds`.
func awaitLine(onFIFO fifo: URL, within seconds: Double) throws -> String? {
    // Non-blocking, so opening does not wait for a writer; poll then waits for one's line.
    let descriptor = open(fifo.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    defer { close(descriptor) }
    let deadline = ContinuousClock.now + .seconds(seconds)
    var received = Data()
    var buffer = [UInt8](repeating: 0, count: 256)
    while ContinuousClock.now < deadline {
        var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let left = deadline - ContinuousClock.now
        let milliseconds = Int32(max(1, min(Double(Int32.max), Double(left.components.seconds) * 1_000 + Double(left.components.attoseconds) / 1e15)))
        guard poll(&waiting, 1, milliseconds) > 0 else { continue }
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else {
            // End of file: a writer came and went without a whole line.
            if count == 0 { return received.isEmpty ? nil : String(decoding: received, as: UTF8.self) }
            if errno == EAGAIN || errno == EINTR { continue }
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        received.append(contentsOf: buffer[0..<count])
        if let end = received.firstIndex(of: UInt8(ascii: "\n")) { return String(decoding: received[..<end], as: UTF8.self) }
    }
    return nil
}
