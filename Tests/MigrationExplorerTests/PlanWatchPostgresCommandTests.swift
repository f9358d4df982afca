#if PostgreSQL
import Foundation
import MigrationTestSupport
import ThrowawayPostgresServer
import Testing

/// `plan --watch --postgres` through the built binary, against the test process's throwaway
/// server: another instance's `set` prints a new plan within a second, and a lost connection
/// is said on standard error while the watch goes on.
@Suite(.serialized) struct PlanWatchPostgresCommandTests {
    @Test func aSetByAnotherInstancePrintsANewPlanAndALostConnectionIsSaid() async throws {
        let server = try ThrowawayPostgres.shared()
        let url = try server.createDatabase()
        let database = String(url.split(separator: "/").last ?? "")
        let listening = "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%'"
        try #require(await Executable.run(["set", "--version", "0.8", "--postgres", url]).status == 0)
        let watch = try await WatchingCommand(["plan", "--watch", "--json", "--postgres", url])
        try #require(await waitUntil { PlanWatchCommandTests.from(watch.lines.last) == "0.8" }, "\(watch.stderr)")
        try #require(await waitUntil { (try? server.psql(listening, database: database)) == "1" }, "the watch never listened")

        try #require(await Executable.run(["set", "--version", "0.9", "--postgres", url]).status == 0)
        #expect(await waitUntil(timeout: 10) { PlanWatchCommandTests.from(watch.lines.last) == "0.9" }, "\(watch.stdout)\n\(watch.stderr)")

        try #require(try server.terminateSessions(database: database) >= 1)
        #expect(await waitUntil { watch.stderr.contains("not followed for now") }, "\(watch.stderr)")
        #expect(await waitUntil { watch.stderr.contains("followed again") }, "\(watch.stderr)")
        #expect(watch.isRunning)

        try #require(await Executable.run(["set", "--version", "1.0", "--postgres", url]).status == 0)
        #expect(await waitUntil(timeout: 10) { PlanWatchCommandTests.from(watch.lines.last) == "1.0" }, "\(watch.stdout)\n\(watch.stderr)")
    }
}
#endif
