import Foundation
import MigrationCore
import MigrationTestSupport
import Subprocess

/// The built `migration-explorer`, run as a user would: a subprocess with arguments,
/// environment and a working folder; its exit status and output come back.
///
/// Every helper is `async` and runs the binary through swift-subprocess, which waits for the
/// process and reads its output on its own monitor, so a test that waits for a binary holds
/// none of the concurrency pool's few threads (the code under test may need them).
///
/// ```swift
/// let result = try await Executable.run(["plan", "--json"])
/// #expect(result.status == 0)
/// ```
struct Executable {
    struct Result {
        /// The exit status, or the number of the signal that ended the process.
        let status: Int32
        let stdout: String
        let stderr: String
        /// The signal that ended the process; `nil` when it exited.
        var signal: Int32? = nil

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

    /// Runs the binary to its end.
    static func run(_ arguments: [String], in folder: URL? = nil, environment: [String: String] = [:], binary: URL = url) async throws -> Result {
        try await start(arguments, in: folder, environment: environment, binary: binary).finish()
    }

    /// ``run(_:in:environment:binary:)`` that gives up after `seconds`: `nil`, the process
    /// killed, when it has not ended by then.
    static func run(_ arguments: [String], in folder: URL? = nil, endingWithin seconds: Double, binary: URL = url) async throws -> Result? {
        let running = try await start(arguments, in: folder, binary: binary)
        return await running.finish(within: seconds)
    }

    /// Starts `count` copies of the binary together, then waits for them all: a race between
    /// processes.
    static func race(_ count: Int, _ arguments: [String], in folder: URL? = nil) async throws -> [Result] {
        var racers: [Running] = []
        for _ in 0..<count { racers.append(try await start(arguments, in: folder)) }
        var results: [Result] = []
        for racer in racers { results.append(await racer.finish()) }
        return results
    }

    /// Starts the binary without waiting for it, for races between processes: once this
    /// returns, the process exists and ``Running/pid`` names it.
    static func start(_ arguments: [String], in folder: URL? = nil, environment: [String: String] = [:], binary: URL = url) async throws -> Running {
        let output = OutputBuffer(), errors = OutputBuffer(), ended = Locked(false)
        let (started, announce) = AsyncStream.makeStream(of: pid_t.self)
        let variables = Dictionary(uniqueKeysWithValues: environment.compactMap { key, value in
            Environment.Key(rawValue: key).map { ($0, Optional(value)) }
        })
        let execution = Task {
            defer {
                ended.withLock { $0 = true }
                output.close()
                errors.close()
            }
            defer { announce.finish() }
            let result = try await Subprocess.run(
                .path(.init(binary.path)), arguments: .init(arguments), environment: .inherit.updating(variables),
                workingDirectory: folder.map { .init($0.path) }, input: .none, output: .sequence, error: .sequence
            ) { execution in
                announce.yield(execution.processIdentifier.value)
                async let read: Void = collect(execution.standardOutput, into: output)
                try await collect(execution.standardError, into: errors)
                try await read
            }
            return switch result.terminationStatus {
            case .exited(let code): Result(status: code, stdout: output.text, stderr: errors.text)
            case .signaled(let signal): Result(status: signal, stdout: output.text, stderr: errors.text, signal: signal)
            }
        }
        guard let pid = await started.first(where: { _ in true }) else {
            _ = try await execution.value
            throw CocoaError(.executableLoad)
        }
        return Running(pid: pid, execution: execution, output: output, errors: errors, ended: ended)
    }

    private static func collect(_ stream: SubprocessOutputSequence, into buffer: OutputBuffer) async throws {
        for try await chunk in stream {
            chunk.withUnsafeBytes { buffer.append($0) }
        }
    }

    /// A started binary: its pid, its output so far, and its end to await.
    struct Running: Sendable {
        let pid: pid_t
        fileprivate let execution: Task<Result, any Error>
        fileprivate let output: OutputBuffer
        fileprivate let errors: OutputBuffer
        fileprivate let ended: Locked<Bool>

        /// What it has written to standard output so far.
        var stdoutSoFar: String { output.text }
        /// What it has written to standard error so far.
        var stderrSoFar: String { errors.text }

        /// Waits until its standard output holds `text` (woken by each chunk): `false` when it
        /// ended without, or `seconds` passed first (a deadline for a hang).
        func stdout(contains text: String, within seconds: Double = hangDeadline) async -> Bool {
            await output.contains(text, within: seconds)
        }

        /// Whether it has not ended yet (or has, and its output is still being read).
        var isRunning: Bool { !ended.value }

        /// Sends `signal`, unless it has ended (and its pid may be another process's by now).
        func send(_ signal: Int32) {
            if isRunning { kill(pid, signal) }
        }

        /// Waits for its end. (A failure to read its output is its standard error, status -1.)
        func finish() async -> Result {
            do { return try await execution.value } catch { return Result(status: -1, stdout: output.text, stderr: "\(error)") }
        }

        /// Waits `seconds` at most for its end: `nil`, the process killed, when it has not
        /// ended by then.
        func finish(within seconds: Double) async -> Result? {
            let deadline = Task {
                guard (try? await Task.sleep(for: .seconds(seconds))) != nil else { return false }
                send(SIGKILL)
                return true
            }
            let result = await finish()
            deadline.cancel()
            return await deadline.value ? nil : result
        }
    }
}

/// What a started binary wrote to one of its streams so far; a test may wait for a text to
/// come (woken by each chunk, never polled).
final class OutputBuffer: Sendable {
    private let state = Locked<(data: Data, closed: Bool, waiters: [(text: String, waiter: CheckedContinuation<Bool, Never>)])>((Data(), false, []))

    var text: String { String(decoding: state.value.data, as: UTF8.self) }

    func append(_ bytes: UnsafeRawBufferPointer) {
        let ready = state.withLock { state -> [(text: String, waiter: CheckedContinuation<Bool, Never>)] in
            state.data.append(contentsOf: bytes)
            guard !state.waiters.isEmpty else { return [] }
            let text = String(decoding: state.data, as: UTF8.self)
            let (met, waiting) = (state.waiters.filter { text.contains($0.text) }, state.waiters.filter { !text.contains($0.text) })
            state.waiters = waiting
            return met
        }
        for (_, waiter) in ready { waiter.resume(returning: true) }
    }

    /// Those who wait for `text` are told it did not come in time.
    private func giveUp(on text: String) {
        let waiting = state.withLock { state in
            defer { state.waiters.removeAll { $0.text == text } }
            return state.waiters.filter { $0.text == text }
        }
        for (_, waiter) in waiting { waiter.resume(returning: false) }
    }

    /// The stream ended: whoever still waits is told the text never came.
    func close() {
        let waiting = state.withLock { state in
            state.closed = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for (_, waiter) in waiting { waiter.resume(returning: false) }
    }

    /// Whether the text comes: `false` when the stream ends without it, or after `seconds`.
    func contains(_ text: String, within seconds: Double) async -> Bool {
        let deadline = Task { [weak self] in
            guard (try? await Task.sleep(for: .seconds(seconds))) != nil else { return }
            self?.giveUp(on: text)
        }
        defer { deadline.cancel() }
        return await withCheckedContinuation { waiter in
            let answer: Bool? = state.withLock { state in
                if String(decoding: state.data, as: UTF8.self).contains(text) { return true }
                if state.closed { return false }
                state.waiters.append((text, waiter))
                return nil
            }
            if let answer { waiter.resume(returning: answer) }
        }
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
