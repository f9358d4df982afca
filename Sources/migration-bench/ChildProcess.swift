import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts `path` with `arguments`, its standard output to `output` (`/dev/null` when `nil`),
/// standard error this process's; its pid, `nil` when it cannot start. The child starts with
/// no signal blocked and every one at its default: this thread (the concurrency pool's)
/// blocks nearly all, and a tmux server that inherited that would never see `kill-server`'s
/// SIGTERM, nor its panes their SIGHUP.
///
/// ```swift
/// if let pid = startChild("/bin/true", []) { _ = waitForChild(pid) }
/// ```
func startChild(_ path: String, _ arguments: [String], output: Int32? = nil) -> pid_t? {
    var actions: posix_spawn_file_actions_t = .init()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let output {
        posix_spawn_file_actions_adddup2(&actions, output, 1)
    } else {
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t(), all = sigset_t()
    sigemptyset(&none)
    sigfillset(&all)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    return posix_spawn(&pid, path, &actions, &attributes, argv, environ) == 0 ? pid : nil
}

/// Waits for the child `pid` to end: its resource usage.
@discardableResult
func waitForChild(_ pid: pid_t) -> rusage {
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    return usage
}
