import Foundation
import MigrationCore
import MigrationPostgres
import MigrationTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A store's commits are heard by a listener on a connection of its own: a run's records, a
/// reset and a set, each saying what and by whom; a lost connection is said and listened again.
@Suite struct PostgresChangeListenerTests {
    /// A listener on `database`, subscribed, once it says it listens.
    private func listening(on database: TestDatabase) async throws -> ChangeRecorder<PostgresChangeEvent> {
        let listener = PostgresChangeListener(server: try PostgresServer(url: database.url), firstRetry: .milliseconds(50))
        // Subscribed from a task of high priority, which the listener's task inherits: a full
        // test run's synchronous tests hold the pool's threads of default priority.
        let recorder = try await promptly { ChangeRecorder(listener.events()) }
        let listens = await waitUntil(timeout: 30) { recorder.events.contains(.listening(again: false)) }
        try #require(listens, "\(recorder.events)")
        return recorder
    }

    private func notices(_ recorder: ChangeRecorder<PostgresChangeEvent>) -> [PostgresChangeNotice] {
        recorder.events.compactMap { if case .changed(let notice) = $0 { notice } else { nil } }
    }

    @Test func aRunIsHeardWithTheVersionsItRecordedAndWhoRanIt() async throws {
        let database = try TestDatabase()
        let recorder = try await listening(on: database)
        defer { recorder.stop() }

        let report = try await runner().run(store: try database.store())
        try #require(report.succeeded)

        #expect(await waitUntil(timeout: 10) { Set(notices(recorder).flatMap(\.versions)) == ["1.0", "1.1", "1.2"] }, "\(recorder.events)")
        let records = notices(recorder).filter { $0.kind == .record }
        #expect(!records.isEmpty)
        #expect(records.allSatisfy { $0.domain == "default" && $0.schema == "migration_explorer" })
        #expect(records.allSatisfy { $0.host == ProcessInfo.processInfo.hostName && $0.pid == getpid() })
        #expect(records.last?.lastMigratedVersion == "1.2")
    }

    @Test func aResetIsHeard() async throws {
        let database = try TestDatabase()
        let store = try database.store()
        _ = try await runner().run(store: store)
        let recorder = try await listening(on: database)
        defer { recorder.stop() }

        try store.update { $0 = MigrationRule.reset($0) }

        #expect(await waitUntil(timeout: 10) { notices(recorder).map(\.kind) == [.reset] }, "\(recorder.events)")
        #expect(notices(recorder).first?.lastMigratedVersion == nil)
    }

    @Test func aSetOfTheMarksIsHeard() async throws {
        let database = try TestDatabase()
        let store = try database.store()
        let recorder = try await listening(on: database)
        defer { recorder.stop() }

        try store.update { $0.lastMigratedVersion = "1.1"; $0.lastAppVersion = "1.1" }

        #expect(await waitUntil(timeout: 10) { notices(recorder).map(\.kind) == [.set] }, "\(recorder.events)")
        #expect(notices(recorder).first?.lastMigratedVersion == "1.1")
    }

    @Test func aChangeRolledBackIsNotHeard() async throws {
        let database = try TestDatabase()
        let recorder = try await listening(on: database)
        defer { recorder.stop() }

        let report = try await runner(noteRegistry(failingAt: "1.1")).run(store: try database.store())
        #expect(!report.succeeded)

        #expect(await waitUntil(timeout: 10) { notices(recorder).contains { $0.versions == ["1.0"] } }, "\(recorder.events)")
        // Shown by what comes next, not by a pause: notifications come in commit order, so once
        // a later commit's is heard, one for the rolled-back 1.1 would have come before it.
        try database.store().update { $0.lastMigratedVersion = "0.9" }
        #expect(await waitUntil(timeout: 10) { notices(recorder).contains { $0.kind == .set && $0.lastMigratedVersion == "0.9" } }, "\(recorder.events)")
        #expect(!notices(recorder).contains { $0.versions.contains("1.1") }, "\(recorder.events)")
    }

    @Test func aLostConnectionIsSaidAndListenedAgain() async throws {
        let database = try TestDatabase()
        let recorder = try await listening(on: database)
        defer { recorder.stop() }

        try database.server.terminateSessions(database: database.name)

        let relistens = await waitUntil(timeout: 10) { recorder.events.contains(.listening(again: true)) }
        #expect(relistens, "\(recorder.events)")
        #expect(recorder.events.contains { if case .lost = $0 { true } else { false } })
        try database.store().update { $0.lastMigratedVersion = "1.0" }
        #expect(await waitUntil(timeout: 10) { notices(recorder).map(\.kind) == [.set] }, "\(recorder.events)")
    }

    @Test func cancellingTheSubscriberClosesTheListenersConnection() async throws {
        let database = try TestDatabase()
        let sessions = "SELECT count(*) FROM pg_stat_activity WHERE datname = '\(database.name)' AND pid <> pg_backend_pid()"
        let recorder = try await listening(on: database)
        #expect(try database.answer(sessions) == "1")

        recorder.stop()

        #expect(try await waitUntil(timeout: 5) { try database.answer(sessions) == "0" })
    }

    @Test func aPayloadKeepsWithinPostgreSQLsLimitHoweverManyVersionsWereRecorded() throws {
        let versions = (1...3000).map { "10.\($0)" }
        let notice = PostgresChangeNotice(schema: "migration_explorer", domain: "default", kind: .record, versions: versions,
                                          lastMigratedVersion: "10.3000", host: "web-1", pid: 4121)
        let payload = notice.payload
        #expect(payload.utf8.count <= 7999)
        let read = try PostgresChangeNotice(payload: payload)
        #expect(read.moreVersions)
        #expect(!read.versions.isEmpty && versions.starts(with: read.versions))
    }

    @Test func theChannelIsTheSchemasNameCutToFitPostgreSQLsNames() {
        #expect(PostgresChangeNotice.channel(forSchema: "migration_explorer") == "migration_explorer_changes")
        #expect(PostgresChangeNotice.channel(forSchema: String(repeating: "s", count: 63)).utf8.count == 63)
    }
}
