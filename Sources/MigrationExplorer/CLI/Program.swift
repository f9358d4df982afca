import Foundation

/// The executable as it was started, for help and messages: `migration-explorer`, or an app's
/// own explorer (`recipes-explorer: stopped by signal 2 …`).
enum Program {
    static let name = CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent }
        .flatMap { $0.isEmpty ? nil : $0 } ?? "migration-explorer"

    /// Writes `message` to standard error, after the program's name: each of its lines
    /// ``StringProtocol/drawable`` (an error quotes text the tool did not write, which may hold
    /// the tool's own colour codes too) and no password shown.
    static func report(_ message: String) {
        let lines = message.redactingPasswords.split(separator: "\n", omittingEmptySubsequences: false).map(\.drawable)
        StandardStreams.write("\(name): \(lines.joined(separator: "\n"))\n", to: .standardError)
    }

    /// Ends the process with `status`, once what it wrote is flushed: the only way it ends,
    /// whether the command returned or a signal ends it at once (``SignalCancellation``,
    /// ``WatchOutput``). A `status` of success becomes ``ExitStatus/outputLost`` when standard
    /// output could not be written (see ``StandardStreams/exitStatus(_:)``).
    static func exit(_ status: Int32) -> Never {
        Foundation.exit(StandardStreams.exitStatus(status))
    }

    /// Says, on standard error, that `reset` or `set` (`doing`: "resetting it") waits for a run
    /// on `store` to finish.
    static func reportWaitingForRun(on store: String, before doing: String) {
        report("waiting for the run on \(store) to finish before \(doing)…")
    }
}
