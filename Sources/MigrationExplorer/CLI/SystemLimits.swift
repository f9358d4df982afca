import Foundation

/// The least the explorer needs of the limits a user can set (`ulimit`): open files, and
/// address space. Below them the runtime itself fails where no error reaches the program:
/// libdispatch and SwiftNIO stop the process on a signal when they cannot open a descriptor,
/// and a thread the concurrency pool cannot start leaves whatever waits for it waiting for
/// ever, the store's lock held. So both are checked before anything starts. The limits are the
/// user's: they are not raised behind their back, since the commands a run starts inherit them.
///
/// ```swift
/// if let problem = SystemLimits.problem() { Program.report(problem); exit(71) }
/// ```
enum SystemLimits {
    /// Open files the explorer needs at least: its standard streams, the runtime's event
    /// descriptors, a store and its lock files, a command's pipe, a database's connection.
    static let openFiles: rlim_t = 32
    /// Bytes of address space the explorer needs at least: every thread reserves its stack and
    /// the C library an arena for it, far more than it uses.
    static let addressSpace: rlim_t = 2 << 30

    /// What to tell the user when a limit (`ulimit -n`, `ulimit -v`) is below what the
    /// explorer needs; `nil` when both are enough.
    static func problem() -> String? {
        if let files = softLimit(RLIMIT_NOFILE), files < openFiles {
            return "this process may open only \(files) files (`ulimit -n`); the explorer needs at least \(openFiles): "
                + "raise the limit (`ulimit -n 1024`) and try again"
        }
        if let bytes = softLimit(RLIMIT_AS), bytes < addressSpace {
            return "this process may use only \(bytes >> 20) MiB of address space (`ulimit -v`); the explorer needs at least "
                + "\(addressSpace >> 20) MiB to start its threads: raise the limit (`ulimit -v unlimited`) and try again"
        }
        return nil
    }

    /// The soft limit of `resource`; `nil` when there is none (or it cannot be read).
    #if os(Linux)
    private static func softLimit(_ resource: __rlimit_resource) -> rlim_t? {
        softLimit(__rlimit_resource_t(resource.rawValue))
    }
    #endif

    private static func softLimit(_ resource: Int32) -> rlim_t? {
        var limit = rlimit()
        // No limit is RLIM_INFINITY, all ones on Linux and 2⁶³ − 1 on macOS: above any real one.
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < 1 << 62 else { return nil }
        return limit.rlim_cur
    }
}
