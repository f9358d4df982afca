import Foundation
import MigrationCore

/// Runs `body` with `Migration.shared` replaced by `migrator`, then puts the previous one back.
/// Every test in the package that replaces the shared migrator goes through here: one
/// process-wide gate keeps tests of different suites (and test targets, which share a process)
/// from replacing it under each other. Waiting for the gate suspends the test's task rather
/// than blocking its thread, so a holder whose body awaits always gets a thread to go on.
///
/// ```swift
/// await withSharedMigrator(Migrator(appVersion: "1.0", store: InMemoryMigrationStore())) {
///     Migration.migrateToVersion("1.0") { ran = true }
/// }
/// ```
public func withSharedMigrator<T>(_ migrator: Migrator, _ body: () async throws -> T) async rethrows -> T {
    await SharedMigratorGate.shared.enter()
    let previous = Migration.shared
    Migration.shared = migrator
    defer {
        Migration.shared = previous
        SharedMigratorGate.shared.leave()
    }
    return try await body()
}

/// One holder at a time; the others wait in line, suspended.
private final class SharedMigratorGate: Sendable {
    static let shared = SharedMigratorGate()

    private struct Line {
        var isHeld = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let line = Locked(Line())

    func enter() async {
        await withCheckedContinuation { continuation in
            let entered = line.withLock { line in
                if line.isHeld {
                    line.waiting.append(continuation)
                    return false
                }
                line.isHeld = true
                return true
            }
            if entered { continuation.resume() }
        }
    }

    func leave() {
        let next = line.withLock { line in
            if line.waiting.isEmpty {
                line.isHeld = false
                return CheckedContinuation<Void, Never>?.none
            }
            return line.waiting.removeFirst()
        }
        next?.resume()
    }
}
