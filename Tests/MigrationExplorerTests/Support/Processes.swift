import Foundation
import MigrationTestSupport
import Testing

/// The pid a command wrote to `file` (`echo $$ > pid`), once it is there (``hangDeadline`` at most).
func pidWritten(to file: URL) async throws -> pid_t {
    try #require(await waitUntil { (try? file.read())?.hasSuffix("\n") == true }, "no pid in \(file.path) after \(Int(hangDeadline)) s: the command never started")
    return try #require(pid_t(file.read().trimmingCharacters(in: .whitespacesAndNewlines)))
}

/// Whether process `pid` has ended (gone, or a zombie nobody has reaped yet), waiting 30
/// seconds at most.
func processIsGone(_ pid: pid_t) async -> Bool {
    await waitUntil { !isAlive(pid) }
}
