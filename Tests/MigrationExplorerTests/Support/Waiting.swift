import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Waits up to `timeout` seconds for `condition`, checking every 10 ms; returns whether it held.
func waitUntil(timeout: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        usleep(10_000)
    }
    return try condition()
}

/// ``waitUntil(timeout:_:)`` for async tests: sleeps between checks instead of blocking a thread
/// the task under test may need.
func waitUntil(timeout: Double = 10, _ condition: () throws -> Bool) async rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return try condition()
}

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
