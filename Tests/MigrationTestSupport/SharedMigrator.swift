import Foundation
import MigrationCore

/// Runs `body` with `Migration.shared` replaced by `migrator`, then puts the previous one back.
/// Every test in the package that replaces the shared migrator goes through here: one
/// process-wide gate keeps tests of different suites (and test targets, which share a process)
/// from replacing it under each other.
///
/// ```swift
/// withSharedMigrator(Migrator(appVersion: "1.0", store: InMemoryMigrationStore())) {
///     Migration.migrateToVersion("1.0") { ran = true }
/// }
/// ```
public func withSharedMigrator<T>(_ migrator: Migrator, _ body: () throws -> T) rethrows -> T {
    sharedMigratorGate.wait()
    defer { sharedMigratorGate.signal() }
    let previous = Migration.shared
    defer { Migration.shared = previous }
    Migration.shared = migrator
    return try body()
}

/// ``withSharedMigrator(_:_:)`` for a body that awaits. Waiting for the gate blocks the task's
/// thread: fine for tests, where another holder is rare and brief.
public func withSharedMigrator<T>(_ migrator: Migrator, _ body: () async throws -> T) async rethrows -> T {
    sharedMigratorGate.wait()
    defer { sharedMigratorGate.signal() }
    let previous = Migration.shared
    defer { Migration.shared = previous }
    Migration.shared = migrator
    return try await body()
}

private let sharedMigratorGate = DispatchSemaphore(value: 1)
