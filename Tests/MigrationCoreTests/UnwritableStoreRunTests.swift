import Foundation
import Testing
@testable import MigrationCore

/// A run against a store that cannot be written is an error before its first step, not a
/// failed migration; a run with nothing to write does not need to write.
@Suite("Runs on a store that cannot be written")
struct UnwritableStoreRunTests {
    /// A registry whose bodies append their version to `ran`, and an update hook.
    func runner(ran: Recorder<String>) throws -> MigrationRunner {
        var registry = MigrationRegistry(appName: "Test")
        for version in ["0.9", "1.0"] {
            registry.migrate(toVersion: version, title: "v\(version)") { _ in ran.append(version) }
        }
        registry.onUpdate(title: "update") { _ in ran.append("update") }
        return MigrationRunner(registry: registry, target: try AppTarget(version: "1.0"))
    }

    @Test func aRunOnAStoreThatCannotBeWrittenThrowsBeforeAnyStep() throws {
        let ran = Recorder<String>()
        let events = Recorder<String>()
        let store = ReadOnlyStore(state: .device(at: try Version("0.8")))
        #expect(throws: MigrationStoreError.self) {
            _ = try runner(ran: ran).run(store: store) { events.append("\($0)") }
        }
        #expect(ran.items.isEmpty)
        #expect(events.items.isEmpty, "a step started: \(events.items)")
    }

    @Test func anAsyncRunOnAStoreThatCannotBeWrittenThrowsBeforeAnyStep() async throws {
        let ran = Recorder<String>()
        let store = ReadOnlyStore(state: .device(at: try Version("0.8")))
        await #expect(throws: MigrationStoreError.self) { _ = try await runner(ran: ran).run(store: store) }
        #expect(ran.items.isEmpty)
    }

    @Test func aBaselineOnAStoreThatCannotBeWrittenThrows() throws {
        var registry = MigrationRegistry(appName: "Test")
        registry.migrate(toVersion: "1.0", title: "v1.0") { _ in }
        let runner = MigrationRunner(registry: registry, target: try AppTarget(version: "1.0"), policy: .baseline)
        #expect(throws: MigrationStoreError.self) { _ = try runner.run(store: ReadOnlyStore(state: .freshInstall)) }
    }

    @Test func aRunWithNothingToDoOnAStoreThatCannotBeWrittenSucceeds() throws {
        let ran = Recorder<String>()
        var upToDate = MigrationState.device(at: try Version("1.0"))
        upToDate.lastAppVersion = "1.0"
        let report = try runner(ran: ran).run(store: ReadOnlyStore(state: upToDate))
        #expect(report.succeeded)
        #expect(report.steps.isEmpty)
        #expect(ran.items.isEmpty)
    }

    @Test func aReadOnlyFileSystemIsNamedAsTheReason() {
        #expect(WriteAccess.reason(EROFS, "the file /mnt/ro/state.json") == "the file /mnt/ro/state.json is on a read-only file system")
        #expect(WriteAccess.reason(EACCES, "the folder /srv").hasPrefix("permission denied: this user (uid "))
    }
}
