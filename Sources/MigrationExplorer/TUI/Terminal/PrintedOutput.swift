import CNcurses
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output and error sent to an unlinked temporary file while the terminal UI holds
/// the terminal, so that what a migration body prints cannot scribble over the screen.
/// ``release()`` gives them back and writes what was printed meanwhile to standard error; so
/// does a body that calls `exit` or crashes (a runtime error message included), after the
/// terminal is restored; the crash then goes on to the handler that was there before (Swift's
/// backtracer, say).
///
/// ```swift
/// let printed = PrintedOutput.capture(restoringTerminal: { endwin() })   // ncurses draws on a copy of the terminal
/// // … the UI runs; a body prints …
/// printed?.release()
/// ```
final class PrintedOutput {
    /// The one capture of the process: what the exit and crash handlers and ``release()`` give
    /// back, whichever comes first (they run on the thread that exits, crashes or closes the UI).
    nonisolated(unsafe) private static var current: (file: Int32, output: Int32, error: Int32, restoreTerminal: @convention(c) () -> Void)?
    /// The crash handlers that were there before, put back once the capture ends.
    nonisolated(unsafe) private static var previousHandlers: [Int32: sigaction] = [:]
    /// The copying buffer, allocated before any handler may need it.
    nonisolated(unsafe) private static let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 1)
    private static let crashSignals = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE]

    private init() {}

    /// Starts capturing; `nil` (nothing captured) when the file or the descriptors cannot be
    /// set up, or a capture is already on. `restoreTerminal` runs first when the process exits
    /// or crashes while capturing.
    static func capture(restoringTerminal restoreTerminal: @convention(c) () -> Void) -> PrintedOutput? {
        guard current == nil else { return nil }
        var template = Array((NSTemporaryDirectory() + "/migration-explorer-output-XXXXXX").utf8CString)
        let file = mkstemp(&template)
        guard file >= 0 else { return nil }
        unlink(template)
        let (output, error) = (dup(STDOUT_FILENO), dup(STDERR_FILENO))
        guard output >= 0, error >= 0 else {
            [file, output, error].filter { $0 >= 0 }.forEach { close($0) }
            return nil
        }
        for descriptor in [file, output, error] { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        fflush(nil)
        current = (file, output, error, restoreTerminal)
        dup2(file, STDOUT_FILENO)
        dup2(file, STDERR_FILENO)
        cn_line_buffer_stdout()  // a crash then loses no finished line
        atexit { PrintedOutput.giveBack() }
        _ = buffer
        for number in crashSignals {
            var action = sigaction(), previous = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = PrintedOutput.crashed
            #else
            action.__sigaction_u.__sa_handler = PrintedOutput.crashed
            #endif
            sigaction(number, &action, &previous)
            previousHandlers[number] = previous
        }
        return PrintedOutput()
    }

    /// Gives standard output and error back and writes what was printed meanwhile to standard
    /// error.
    func release() {
        fflush(nil)
        Self.restoreCrashHandlers()
        Self.giveBack()
    }

    private static func restoreCrashHandlers() {
        for (number, previous) in previousHandlers {
            var previous = previous
            sigaction(number, &previous, nil)
        }
    }

    /// Puts the descriptors back and copies the file to standard error; at most once. Uses
    /// only calls that are safe in a signal handler, but the terminal's restoring.
    private static func giveBack() {
        guard let (file, output, error, restoreTerminal) = current else { return }
        current = nil
        restoreTerminal()
        dup2(output, STDOUT_FILENO)
        dup2(error, STDERR_FILENO)
        var offset: off_t = 0
        while true {
            let count = pread(file, buffer.baseAddress, buffer.count, offset)
            guard count > 0 else { break }
            var written = 0
            while written < count {
                let done = write(STDERR_FILENO, buffer.baseAddress.map { $0 + written }, count - written)
                guard done > 0 else { break }
                written += done
            }
            offset += off_t(count)
        }
        [file, output, error].forEach { close($0) }
    }

    /// A crash while capturing: the terminal and the descriptors given back, then the signal
    /// again to the handler that was there before, so that the process ends as it would have.
    private static let crashed: @convention(c) (Int32) -> Void = { number in
        PrintedOutput.giveBack()
        PrintedOutput.restoreCrashHandlers()
        raise(number)
    }
}
