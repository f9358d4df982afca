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
            var limit = rlimit()
            getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            return "too few file descriptors are free to start the driver (it needs \(needed) more; ulimit -n is \(limit.rlim_cur)); raise the limit (ulimit -n 256) or close some"
        }
    }
}
