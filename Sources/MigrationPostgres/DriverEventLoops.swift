import Foundation
import MigrationCore
import PostgresNIO

/// The driver's event loops (SwiftNIO's shared group), started only when the process has the
/// file descriptors they need: SwiftNIO stops the whole process with an assertion when it cannot
/// open them (under `ulimit -n 16`, say).
///
/// ```swift
/// let loop = try DriverEventLoops.next()   // or: too few file descriptors are free …
/// ```
enum DriverEventLoops {
    /// Whether the group has started: it then needs no more descriptors.
    private static let started = Locked(false)

    /// A loop of the group, which is started first if need be.
    /// - Throws: ``Shortage`` when the process cannot open the descriptors the group needs.
    static func next() throws(Shortage) -> any EventLoop {
        try started.withLock { (started: inout Bool) throws(Shortage) in
            guard !started else { return }
            // One more for the connection's own socket, opened after the loops.
            let needed = descriptorsPerLoop * NIOSingletons.groupLoopCountSuggestion + 1
            guard canOpen(needed) else { throw Shortage(needed: needed) }
            started = true
        }
        return PostgresConnection.defaultEventLoopGroup.any()
    }

    /// Each loop's selector holds an epoll descriptor, an event descriptor and a timer descriptor.
    private static let descriptorsPerLoop = 3

    /// Whether `count` more descriptors can be open at once: opens and closes them.
    private static func canOpen(_ count: Int) -> Bool {
        var opened: [Int32] = []
        defer { opened.forEach { close($0) } }
        while opened.count < count {
            let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return false }
            opened.append(descriptor)
        }
        return true
    }

    /// Too few file descriptors are free to start the event loops.
    struct Shortage: Error {
        let needed: Int

        var reason: String {
            "too few file descriptors are free to start the driver (it needs \(needed) more; ulimit -n is \(DriverEventLoops.descriptorLimit)); raise the limit (ulimit -n 256) or close some"
        }
    }

    /// The words for a socket this process could not open for want of descriptors (`EMFILE`, `ENFILE`).
    static func descriptorShortage(_ code: Int32) -> String {
        let whose = code == ENFILE ? "the system has" : "this process has (ulimit -n is \(descriptorLimit))"
        return "too many open files: \(whose) no file descriptor free for the connection; raise the limit or close some"
    }

    /// This process's limit of open files, `ulimit -n`.
    private static var descriptorLimit: UInt64 {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        return UInt64(limit.rlim_cur)
    }
}
