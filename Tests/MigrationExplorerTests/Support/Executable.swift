import Foundation
import MigrationTestSupport

/// The built `migration-explorer`, run as a user would: a subprocess with arguments,
/// environment and a working folder; its exit status and output come back.
struct Executable {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String

        func json() throws -> [String: Any] {
            let object = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
            guard let dictionary = object as? [String: Any] else { throw CocoaError(.coderReadCorrupt) }
            return dictionary
        }
    }

    /// Next to the test bundle, where the package's products are built.
    static let url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("migration-explorer")

    /// `embeddedExample`: the embedding example's binary instead.
    static let embeddedExample = url.deletingLastPathComponent().appendingPathComponent("embedded-example")
    /// `misbehavingApp`: an app's explorer whose body exits, crashes or prints as `MISBEHAVIOUR` says.
    static let misbehavingApp = url.deletingLastPathComponent().appendingPathComponent("misbehaving-app")

    static func run(_ arguments: [String], in folder: URL? = nil, environment: [String: String] = [:], binary: URL = url) throws -> Result {
        let process = try start(arguments, in: folder, environment: environment, binary: binary)
        return finish(process)
    }

    /// Starts the binary without waiting, for races between processes.
    static func start(_ arguments: [String], in folder: URL? = nil, environment: [String: String] = [:], binary: URL = url) throws -> Running {
        let process = SpawnedProcess()
        process.executableURL = binary
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let stdout = Pipe(), stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return Running(process: process, stdout: stdout, stderr: stderr)
    }

    struct Running {
        let process: SpawnedProcess
        let stdout: Pipe
        let stderr: Pipe
    }

    /// ``run(_:in:environment:binary:)`` that gives up after `seconds`: `nil`, the process
    /// killed, when it has not ended by then.
    static func run(_ arguments: [String], in folder: URL? = nil, endingWithin seconds: Double, binary: URL = url) throws -> Result? {
        let running = try start(arguments, in: folder, binary: binary)
        guard waitUntil(timeout: seconds, { !running.process.isRunning }) else {
            kill(running.process.processIdentifier, SIGKILL)
            _ = finish(running)
            return nil
        }
        return finish(running)
    }

    static func finish(_ running: Running) -> Result {
        let stdoutData = running.stdout.fileHandleForReading.readDataToEndOfFile()
        let stderrData = running.stderr.fileHandleForReading.readDataToEndOfFile()
        running.process.waitUntilExit()
        return Result(status: running.process.terminationStatus,
                      stdout: String(decoding: stdoutData, as: UTF8.self),
                      stderr: String(decoding: stderrData, as: UTF8.self))
    }
}

/// A fresh temporary folder; remove it with `try? FileManager.default.removeItem(at:)`.
func makeTemporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("explorer-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

extension URL {
    func write(_ text: String) throws { try Data(text.utf8).write(to: self) }
    func read() throws -> String { try String(contentsOf: self, encoding: .utf8) }
}
