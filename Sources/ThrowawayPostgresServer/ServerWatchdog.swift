import CSpawn
import Foundation
import MigrationCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A small process that stops a throwaway server and removes its folder once this process is
/// gone, however it ends: a normal exit, a crash, or `kill -9`. It reads a pipe whose only
/// writing end this process holds; the kernel closes that end when this process ends, the
/// watchdog reads end of file, runs the stop command, then removes the folder. It leads a
/// session of its own, so that a signal to this process's group (Ctrl-C) does not end it first.
///
/// ```swift
/// let watchdog = try ServerWatchdog.start(stopping: ["/usr/bin/pg_ctl", "-D", data, "-m", "immediate", "-w", "stop"], removing: folder)
/// watchdog.stopNow()   // or let this process end, by any means
/// ```
final class ServerWatchdog: Sendable {
    private let pid: pid_t
    /// The pipe's writing end, until ``stopNow()`` closes it.
    private let writingEnd: Locked<Int32?>

    private init(pid: pid_t, writingEnd: Int32) {
        self.pid = pid
        self.writingEnd = Locked(writingEnd)
    }

    /// Starts the watchdog of `folder`, which runs `stop` (a program and its arguments) and then
    /// removes `folder` when this process ends or ``stopNow()`` is called.
    /// - Throws: ``ServerError`` when the pipe or the process cannot be made.
    static func start(stopping stop: [String], removing folder: String) throws(ServerError) -> ServerWatchdog {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw ServerError("cannot make the watchdog's pipe: \(String(cString: strerror(errno)))") }
        // Close-on-exec: no program this process starts keeps the writing end open.
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        let nullDevice = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { close(ends[0]); close(nullDevice) }
        // `cat` returns at end of file; `$0` is the folder, `$@` the stop command.
        let script = #"cat >/dev/null; "$@"; rm -rf -- "$0""#
        let argv = ["/bin/sh", "-c", script, folder] + stop
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = cspawn(&pid, argv[0], cArguments, environ, "/", ends[0], nullDevice, nullDevice, 1)
        guard spawned == 0 else {
            close(ends[1])
            throw ServerError("cannot start the server's watchdog: \(String(cString: strerror(spawned)))")
        }
        return ServerWatchdog(pid: pid, writingEnd: ends[1])
    }

    /// Has the watchdog stop the server and remove its folder now, and waits until it has.
    /// Calling it again does nothing.
    func stopNow() {
        guard let descriptor = writingEnd.withLock({ end -> Int32? in defer { end = nil }; return end }) else { return }
        close(descriptor)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }
}
