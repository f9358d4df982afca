import Foundation

/// Runs `body` in a task of high priority and awaits it: for a test whose run must make
/// progress while it waits with a deadline. A full test run queues hundreds of synchronous
/// tests that each wait for a child process on a thread of the concurrency pool (two on a
/// two-core machine); a task of default priority queues behind them for minutes, one of high
/// priority runs on the pool's threads for that priority.
///
/// ```swift
/// let report = try await promptly { try await explorer.run() }
/// ```
public func promptly<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await Task(priority: .high) { try await body() }.value
}
