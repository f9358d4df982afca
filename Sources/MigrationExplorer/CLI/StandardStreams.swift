import Foundation
import MigrationCore

/// Standard output and standard error as the command line writes them. A write that fails (a
/// reader that stopped early, `| head -1`; a full disk) never stops the program: SIGPIPE is
/// ignored and no write traps, so a run goes on between a command and its record. A lost write
/// to standard output is remembered, and the program then exits with
/// ``ExitStatus/outputLost`` (74; see ``exitStatus(_:)``).
/// Every report the command line writes goes through here (``print(_:)``), not `Swift.print`.
///
/// ```swift
/// StandardStreams.ignoreBrokenPipes()        // once, at launch
/// StandardStreams.write("0.9 │ done\n")       // a closed pipe just loses the line
/// Program.exit(0)                              // 74 (.outputLost) if standard output lost anything
/// ```
enum StandardStreams {
    private static let outputLost = Locked<String?>(nil)

    /// From now on a write to a closed pipe fails with EPIPE rather than killing the process.
    /// Commands a run starts get SIGPIPE back at its default (swift-subprocess resets it).
    static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// Writes `text` to `handle` (standard output unless said), made
    /// ``StringProtocol/terminalSafe(keepingOwnSequences:)`` on the way: on a terminal the tool's
    /// own styles stay, anywhere else no escape sequence at all. A failure is remembered when
    /// `handle` is standard output, and otherwise dropped.
    static func write(_ text: String, to handle: FileHandle = .standardOutput) {
        let terminal = isatty(handle.fileDescriptor) == 1
        write(bytes: Data(text.terminalSafe(keepingOwnSequences: terminal).utf8), to: handle)
    }

    /// Writes `text` and a new line to standard output, after what the process printed through
    /// the C library (a body's `print`), so that the order stays as it happened.
    static func print(_ text: String) {
        fflush(nil)
        write(text + "\n")
    }

    /// ``write(_:to:)`` for bytes written as they are: JSON, whose strings escape what a
    /// terminal would act on (``StringProtocol/jsonEscapingTerminalControls``).
    static func write(bytes: some DataProtocol, to handle: FileHandle = .standardOutput) {
        do { try handle.write(contentsOf: bytes) } catch {
            if handle.fileDescriptor == STDOUT_FILENO { remember(error) }
        }
    }

    /// The status to exit with: `status`, or ``ExitStatus/outputLost`` when standard output could
    /// not be written and nothing else went wrong (the reason then goes to standard error, if it can).
    static func exitStatus(_ status: Int32) -> Int32 {
        fflush(nil)
        guard let reason = outputLost.value else { return status }
        Program.report("could not write its output to standard output (\(reason)); what it did still happened")
        return status == ExitStatus.success.rawValue ? ExitStatus.outputLost.rawValue : status
    }

    /// Whether a write to standard output failed: its reader is gone (`plan --watch | head -1`).
    static var hasLostOutput: Bool { outputLost.value != nil }

    private static func remember(_ error: Error) {
        let reason = (error as? POSIXError).map { String(cString: strerror($0.code.rawValue)) } ?? error.localizedDescription
        outputLost.withLock { $0 = $0 ?? reason }
    }
}
