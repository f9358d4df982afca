import Foundation
import Testing

/// The pid a command wrote to `file` (`echo $$ > pid`), once it is there.
func pidWritten(to file: URL) throws -> pid_t {
    let deadline = Date().addingTimeInterval(10)
    while (try? file.read())?.hasSuffix("\n") != true, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    return try #require(pid_t(file.read().trimmingCharacters(in: .whitespacesAndNewlines)))
}

/// Whether process `pid` has ended (gone, or a zombie nobody has reaped yet), waiting two
/// seconds at most.
func processIsGone(_ pid: pid_t) -> Bool {
    func ended() -> Bool {
        guard kill(pid, 0) == 0 else { return true }
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        return stat.split(separator: ")").last?.split(separator: " ").first == "Z"
    }
    for _ in 0..<40 where !ended() { Thread.sleep(forTimeInterval: 0.05) }
    return ended()
}
