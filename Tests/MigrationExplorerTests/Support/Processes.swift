import Foundation
import Testing

/// The pid a command wrote to `file` (`echo $$ > pid`), once it is there.
func pidWritten(to file: URL) throws -> pid_t {
    let deadline = Date().addingTimeInterval(10)
    while (try? file.read())?.hasSuffix("\n") != true, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    return try #require(pid_t(file.read().trimmingCharacters(in: .whitespacesAndNewlines)))
}

/// Whether process `pid` is gone, waiting two seconds at most.
func processIsGone(_ pid: pid_t) -> Bool {
    for _ in 0..<40 where kill(pid, 0) == 0 { Thread.sleep(forTimeInterval: 0.05) }
    return kill(pid, 0) != 0
}
