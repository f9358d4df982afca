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
