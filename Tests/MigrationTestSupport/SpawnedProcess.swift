import CSpawn
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process for tests, started with `posix_spawn` where Foundation's `Process` would
/// be: same property names, so a test reads as it would with `Process`. It exists because
/// `Process.run()` in Swift 6.3's Foundation on Linux can crash the whole test process while it
/// lists the descriptors to close (swift-corelibs-foundation#5472). The child gets standard
/// input, output and error and no other descriptor of the tests, so that a pipe one test waits
/// on is never kept open by another test's child.
///
/// ```swift
/// let process = SpawnedProcess()
/// process.executableURL = URL(fileURLWithPath: "/bin/echo")
/// process.arguments = ["hello"]
/// let output = Pipe()
/// process.standardOutput = output
/// try process.run()
/// let text = output.fileHandleForReading.readDataToEndOfFile()   // "hello\n"
/// process.waitUntilExit()
/// ```
public final class SpawnedProcess: @unchecked Sendable {
    /// How the process ended: Foundation's names.
    public enum TerminationReason: Sendable, Equatable {
        case exit
        case uncaughtSignal
    }

    public var executableURL: URL?
    public var arguments: [String] = []
    /// The process's working folder: this process's own when `nil`.
    public var currentDirectoryURL: URL?
    /// Its environment: this process's own when `nil`.
    public var environment: [String: String]?
    /// A `Pipe` (the child gets its writing end), a `FileHandle`, or `nil`: this process's own.
    public var standardInput: Any?
    public var standardOutput: Any?
    public var standardError: Any?

    // Safe: `pid` is set once by `run()` before any other call; `ended` is only touched with `lock`.
    public private(set) var processIdentifier: pid_t = 0
    private let lock = NSLock()
    private var ended: (reason: TerminationReason, status: Int32)?

    public init() {}

    public struct SpawnError: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts the process. The parent's copies of the pipes' ends given to the child are closed.
    public func run() throws {
        guard let executableURL else { throw SpawnError(description: "no executable to run") }
        let words = [executableURL.path] + arguments
        let variables = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        let argv = words.map { strdup($0) } + [nil], envp = variables.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        let nullDevice = open("/dev/null", O_RDWR | O_CLOEXEC)
        defer { close(nullDevice) }
        let input = Self.descriptor(standardInput, reading: true, default: STDIN_FILENO, nullDevice: nullDevice)
        let output = Self.descriptor(standardOutput, reading: false, default: STDOUT_FILENO, nullDevice: nullDevice)
        let error = Self.descriptor(standardError, reading: false, default: STDERR_FILENO, nullDevice: nullDevice)
        var pid: pid_t = 0
        let result = executableURL.path.withCString { path in
            if let folder = currentDirectoryURL?.path {
                return folder.withCString { cspawn(&pid, path, argv, envp, $0, input, output, error, 0) }
            }
            return cspawn(&pid, path, argv, envp, nil, input, output, error, 0)
        }
        guard result == 0 else {
            throw SpawnError(description: "could not start \(executableURL.path): \(String(cString: strerror(result)))")
        }
        processIdentifier = pid
        for case let pipe as Pipe in [standardInput, standardOutput, standardError] {
            try? (pipe === standardInput as AnyObject ? pipe.fileHandleForReading : pipe.fileHandleForWriting).close()
        }
    }

    /// Whether the process has not ended yet (it is reaped when it has).
    public var isRunning: Bool { lock.withLock { reap(blocking: false) } == nil }

    /// Waits for the process to end.
    public func waitUntilExit() { lock.withLock { _ = reap(blocking: true) } }

    /// Its exit status, or the number of the signal that ended it; call after ``waitUntilExit()``.
    public var terminationStatus: Int32 { lock.withLock { ended?.status ?? 0 } }

    public var terminationReason: TerminationReason { lock.withLock { ended?.reason ?? .exit } }

    /// Sends SIGTERM.
    public func terminate() { kill(processIdentifier, SIGTERM) }

    /// Sends SIGINT.
    public func interrupt() { kill(processIdentifier, SIGINT) }

    /// How the process ended, reaping it: `nil` while it runs (and `blocking` is false).
    private func reap(blocking: Bool) -> (reason: TerminationReason, status: Int32)? {
        if let ended { return ended }
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(processIdentifier, &status, blocking ? 0 : WNOHANG) } while result < 0 && errno == EINTR
        guard result == processIdentifier else { return nil }
        // WIFEXITED, WEXITSTATUS and WTERMSIG are macros Swift cannot import.
        let signal = status & 0x7f
        ended = signal == 0 ? (.exit, (status >> 8) & 0xff) : (.uncaughtSignal, signal)
        return ended
    }

    /// The descriptor the child gets for one of its standard streams. (Foundation's
    /// `FileHandle.nullDevice` has no descriptor of its own.)
    private static func descriptor(_ stream: Any?, reading: Bool, default standard: Int32, nullDevice: Int32) -> Int32 {
        switch stream {
        case let pipe as Pipe: (reading ? pipe.fileHandleForReading : pipe.fileHandleForWriting).fileDescriptor
        case let handle as FileHandle where handle === FileHandle.nullDevice: nullDevice
        case let handle as FileHandle: handle.fileDescriptor
        default: standard
        }
    }
}
