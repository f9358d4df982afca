import Foundation

/// The least number of open files the explorer needs: its standard streams, the concurrency
/// runtime's event descriptors, a store and its lock files, a command's pipe, a database's
/// connection. Below it the runtime itself fails where no error reaches the program (libdispatch
/// and SwiftNIO stop the process on a signal), so the limit is checked before anything starts.
///
/// ```swift
/// if let problem = DescriptorLimit.problem() { Program.report(problem); exit(71) }
/// ```
enum DescriptorLimit {
    /// Open files the explorer needs at least.
    static let needed: rlim_t = 32

    /// What to tell the user when the process may open fewer than ``needed`` files (the soft
    /// limit, `ulimit -n`); `nil` when it may open enough. The limit is the user's: it is not
    /// raised behind their back, since the commands a run starts inherit it.
    static func problem() -> String? {
        var limit = rlimit()
        #if os(Linux)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < needed else { return nil }
        return "this process may open only \(limit.rlim_cur) files (`ulimit -n`); the explorer needs at least \(needed): "
            + "raise the limit (`ulimit -n 1024`) and try again"
    }
}
