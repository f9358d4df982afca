import Foundation
import MigrationCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether some process waits, blocked, for the `flock` on `file`: Linux lists each waiter in
/// `/proc/locks` with `->` before it. `nil` where that cannot be seen.
func someoneWaitsForTheLock(on file: URL) -> Bool? {
    #if os(Linux)
    var info = stat()
    // Read to its end: `/proc/locks` reports a size of 0, and a one-read load cuts a long list.
    guard stat(file.path, &info) == 0, let locks = LockHolder.readWhole("/proc/locks") else { return false }
    // A line: "2: -> FLOCK  ADVISORY  WRITE 31797 fe:00:16220847 0 EOF" (device, then inode).
    return locks.split(separator: "\n").contains { $0.contains("-> FLOCK") && $0.contains(":\(info.st_ino) ") }
    #else
    return nil
    #endif
}
