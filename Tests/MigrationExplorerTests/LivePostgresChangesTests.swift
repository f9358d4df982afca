#if PostgreSQL
import Foundation
import MigrationPostgres
import MigrationTestSupport
import ThrowawayPostgresServer
import Testing

/// A listener hears what another process (the built binary) commits to a PostgreSQL store:
/// a run's records, with that process's pid, a `set` and a `reset`.
@Suite struct LivePostgresChangesTests {
    @Test func anotherProcesssRunSetAndResetAreHeardSayingWhoAndWhat() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = #"{"app": "Rows", "appVersion": "2", "migrations": [{"version": "1", "title": "Rows", "sql": "CREATE TABLE row (version text)"}, {"version": "2", "title": "Row 2", "sql": "INSERT INTO row VALUES ('2')"}]}"#
        try Data(manifest.utf8).write(to: folder.appendingPathComponent("rows.json"))
        let url = try ThrowawayPostgres.shared().createDatabase()
        let listener = PostgresChangeListener(server: try PostgresServer(url: url))
        // Subscribed from a task of high priority, which the listener's task inherits (see `promptly`).
        let recorder = try await promptly { ChangeRecorder(listener.events()) }
        defer { recorder.stop() }
        try #require(await waitUntil(timeout: 30) { recorder.events.contains(.listening(again: false)) }, "\(recorder.events)")
        func notices() -> [PostgresChangeNotice] {
            recorder.events.compactMap { if case .changed(let notice) = $0 { notice } else { nil } }
        }

        let run = try await Executable.start(["run", "--manifest", "rows.json", "--postgres", url], in: folder)
        let runner = run.pid
        let ran = await run.finish()
        try #require(ran.status == 0, "\(ran.stderr)")
        #expect(await waitUntil(timeout: 10) { Set(notices().flatMap(\.versions)) == ["1", "2"] }, "\(recorder.events)")
        #expect(notices().allSatisfy { $0.pid == runner }, "\(notices())")
        #expect(notices().contains { $0.kind == .record })

        try #require(await Executable.run(["set", "--version", "1", "--postgres", url]).status == 0)
        #expect(await waitUntil(timeout: 10) { notices().last?.kind == .set && notices().last?.lastMigratedVersion == "1" }, "\(recorder.events)")

        try #require(await Executable.run(["reset", "--postgres", url]).status == 0)
        #expect(await waitUntil(timeout: 10) { notices().last?.kind == .reset }, "\(recorder.events)")
    }
}
#endif
