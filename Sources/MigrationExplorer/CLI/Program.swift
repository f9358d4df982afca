import Foundation

/// The executable as it was started, for help and messages: `migration-explorer`, or an app's
/// own explorer (`recipes-explorer: stopped by signal 2 …`).
enum Program {
    static let name = CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent }
        .flatMap { $0.isEmpty ? nil : $0 } ?? "migration-explorer"

    /// Writes `message` to standard error, after the program's name.
    static func report(_ message: String) {
        StandardStreams.write("\(name): \(message)\n", to: .standardError)
    }
}
