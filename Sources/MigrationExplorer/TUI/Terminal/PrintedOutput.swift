import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard output and error sent to a pipe while the terminal UI holds the terminal, so that
/// what a migration body prints cannot scribble over the screen. ``release()`` gives them back
/// and returns what was printed meanwhile (the first and last 64 KiB), for standard error.
///
/// ```swift
/// let printed = PrintedOutput.capture()      // ncurses draws on a copy of the terminal
/// // … the UI runs; a body prints …
/// printed?.release().forEach { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
/// ```
final class PrintedOutput {
    private let savedOutput: Int32
    private let savedError: Int32
    private let reader: OutputReader

    private init(savedOutput: Int32, savedError: Int32, reader: OutputReader) {
        self.savedOutput = savedOutput
        self.savedError = savedError
        self.reader = reader
    }

    /// Starts capturing; `nil` (nothing captured) when the descriptors cannot be set up.
    static func capture() -> PrintedOutput? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        let (savedOutput, savedError) = (dup(STDOUT_FILENO), dup(STDERR_FILENO))
        guard savedOutput >= 0, savedError >= 0 else {
            [ends[0], ends[1], savedOutput, savedError].filter { $0 >= 0 }.forEach { close($0) }
            return nil
        }
        for descriptor in [ends[0], ends[1], savedOutput, savedError] { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        fflush(nil)
        dup2(ends[1], STDOUT_FILENO)
        dup2(ends[1], STDERR_FILENO)
        close(ends[1])
        return PrintedOutput(savedOutput: savedOutput, savedError: savedError, reader: OutputReader(descriptor: ends[0], output: CappedOutput()))
    }

    /// Gives standard output and error back; returns the lines printed meanwhile.
    func release() -> [String] {
        fflush(nil)
        dup2(savedOutput, STDOUT_FILENO)
        dup2(savedError, STDERR_FILENO)
        close(savedOutput)
        close(savedError)
        return reader.finish().lines
    }
}
