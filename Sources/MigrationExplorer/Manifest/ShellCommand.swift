import Foundation
import MigrationCore

/// A manifest's `run`: a shell command run with `/bin/sh -c` in the manifest's folder, its
/// output captured line by line into the migration's log. A non-zero exit fails the migration.
struct ShellCommand: Sendable {
    let command: String
    let folder: URL
    /// `MIGRATION_VERSION` or `MIGRATION_BUILD` and its value; none for hooks.
    let identity: (name: String, value: String)?

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    func run(_ context: MigrationContext) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = folder
        var environment = ProcessInfo.processInfo.environment
        if let identity { environment[identity.name] = identity.value }
        environment["MIGRATION_FROM"] = context.from ?? ""
        environment["MIGRATION_TO"] = context.to
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch {
            throw Failure(description: "could not start /bin/sh in \(folder.path): \(error.localizedDescription)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast(text.hasSuffix("\n") ? 1 : 0) {
            context.log(String(line))
        }
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let how = process.terminationReason == .exit
                ? "exited with status \(process.terminationStatus)" : "was killed by signal \(process.terminationStatus)"
            throw Failure(description: "`\(command)` \(how)")
        }
    }
}
