import Foundation

/// Runs `body` with standard output sent to standard error (when `diverting`), so that what a
/// migration body prints cannot break the one JSON document `--json` promises on standard
/// output; `body` is given the real standard output, for a document it must write before the
/// end (a signal).
///
/// ```swift
/// let report = try await withStandardOutputOnStandardError(if: json) { _ in try await explorer.run() }
/// StandardStreams.print(JSONReports.encode(JSONReports.Run(report, error: nil)))   // standard output again
/// ```
func withStandardOutputOnStandardError<T>(if diverting: Bool, _ body: (FileHandle) async throws -> T) async rethrows -> T {
    guard diverting else { return try await body(FileHandle.standardOutput) }
    fflush(nil)
    let saved = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0)
    guard saved >= 0 else { return try await body(FileHandle.standardOutput) }
    dup2(STDERR_FILENO, STDOUT_FILENO)
    defer {
        fflush(nil)
        dup2(saved, STDOUT_FILENO)
        close(saved)
    }
    return try await body(FileHandle(fileDescriptor: saved, closeOnDealloc: false))
}
