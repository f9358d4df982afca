import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An advisory `flock` on a file, shared across processes, re-entrant within one thread and
/// exclusive between threads of one process.
final class FileLock: @unchecked Sendable {
    struct LockError: Error, CustomStringConvertible {
        let description: String
    }

    private let path: String
    private let threads = RecursiveLock()
    // Safe: both are only touched while `threads` is held.
    private var descriptor: Int32 = -1
    private var depth = 0

    init(path: String) { self.path = path }

    func withLock<T>(_ body: () throws -> T) throws -> T {
        try threads.withLock {
            if depth == 0 { try acquire() }
            depth += 1
            defer {
                depth -= 1
                if depth == 0 { release() }
            }
            return try body()
        }
    }

    /// The locked descriptor while the calling thread holds the lock (inside ``withLock(_:)``),
    /// for a child process to inherit; `nil` otherwise. Called from another thread, it waits
    /// for the holder to finish and then gives `nil`.
    var heldDescriptor: Int32? {
        threads.withLock { depth > 0 ? descriptor : nil }
    }

    private func acquire() throws(LockError) {
        let opened = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard opened >= 0 else { throw LockError(description: "open \(path): \(errnoText())") }
        var result: Int32
        repeat { result = flock(opened, LOCK_EX) } while result != 0 && errno == EINTR
        guard result == 0 else {
            let why = errnoText()
            close(opened)
            throw LockError(description: "flock \(path): \(why)")
        }
        descriptor = opened
    }

    private func release() {
        flock(descriptor, LOCK_UN)
        close(descriptor)
        descriptor = -1
    }
}

func errnoText(_ code: Int32 = errno) -> String {
    String(cString: strerror(code))
}
