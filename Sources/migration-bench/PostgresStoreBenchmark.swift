#if PostgreSQL
import Foundation
import MigrationCore
import MigrationPostgres
import PostgresNIO
import ThrowawayPostgresServer
// postgres-nio's own logging package, which its connections take.
import Logging

/// The PostgreSQL store on a throwaway server of its own: a boot check with nothing pending
/// beside a bare `SELECT 1` on a fresh connection, and a fleet of 32 instances booting at once
/// with one pending 200 ms SQL migration.
enum PostgresStoreBenchmark {
    static func run(_ table: Table) async throws {
        let server = try ThrowawayPostgres.shared()
        defer { server.stop() }
        try await bootCheck(server, table)
        try await fleet(server, table, instances: 32)
    }

    /// Ten migrations, all applied: what a boot with nothing pending reads.
    private static func bootCheck(_ server: ThrowawayPostgres, _ table: Table) async throws {
        // Both sides without TLS, which the throwaway server does not offer.
        let url = try server.createDatabase() + "?sslmode=disable"
        var registry = MigrationRegistry(appName: "Boot")
        for version in versions(10) { registry.migrate(toVersion: version, title: version) { _ in } }
        let runner = MigrationRunner(registry: registry, target: try AppTarget(version: versions(10).last!))
        _ = try await runner.run(store: try PostgresMigrationStore(url: url))
        let parsed = try PostgresServer(url: url)
        let configuration = try parsed.configurationWithoutTLS()
        let logger = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })
        print("Boot check with nothing pending (a fresh store, its own connection) beside a bare SELECT 1 on a fresh connection")
        let rounds = 41
        var boot: [Double] = [], bare: [Double] = []
        for _ in 0..<rounds {
            let clock = ContinuousClock()
            let start = clock.now
            let store = try PostgresMigrationStore(url: url)
            let report = try await runner.run(store: store)
            store.close()
            precondition(report.steps.isEmpty, "nothing should be pending")
            boot.append(seconds(start.duration(to: clock.now)))
            let bareStart = clock.now
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
            _ = try await connection.query("SELECT 1", logger: logger).collect()
            try await connection.close()
            bare.append(seconds(bareStart.duration(to: clock.now)))
        }
        let (bootMedian, bareMedian) = (boot.sorted()[rounds / 2], bare.sorted()[rounds / 2])
        table.ratio("PostgreSQL boot check, nothing pending: \(formatted(bootMedian))", bootMedian,
                    baseline: "fresh connection + SELECT 1 \(formatted(bareMedian))", bareMedian, atMost: 1.5)
    }

    /// `instances` stores, each with its own connection and thread, run at once; one SQL
    /// migration (200 ms) is pending. Exactly one runs it; the others wait on its lock.
    private static func fleet(_ server: ThrowawayPostgres, _ table: Table, instances: Int) async throws {
        print("\(instances) instances booting at once, one pending 200 ms SQL migration")
        var registry = MigrationRegistry(appName: "Fleet")
        registry.migrate(toVersion: "1.0", title: "Slow", postgres: { transaction, _ in
            try transaction.execute("CREATE TABLE applied (at timestamptz DEFAULT now()); INSERT INTO applied DEFAULT VALUES; SELECT pg_sleep(0.2)")
        })
        let runner = MigrationRunner(registry: registry, target: try AppTarget(version: "1.0"))
        var worst: [Double] = [], connecting: [Double] = []
        for _ in 0..<5 {
            let url = try server.createDatabase()
            let database = String(url.split(separator: "/").last ?? "")
            let stores = try (0..<instances).map { _ in try PostgresMigrationStore(url: url) }
            let clock = ContinuousClock()
            let start = clock.now
            let results = try await withThrowingTaskGroup(of: (Double, Int).self) { group in
                for store in stores {
                    group.addTask {
                        let report = try await runner.run(store: store)
                        precondition(report.succeeded, "\(String(describing: report.failure?.outcome))")
                        return (seconds(start.duration(to: clock.now)), report.steps.filter { $0.outcome == .succeeded }.count)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            stores.forEach { $0.close() }
            let applied = try server.psql("SELECT count(*) FROM applied", database: database)
            precondition(applied == "1" && results.map(\.1).reduce(0, +) == 1, "the migration should have run exactly once, not \(applied)")
            worst.append(results.map(\.0).max() ?? 0)
            connecting.append(try await connectingAtOnce(instances, to: PostgresServer(url: url)))
        }
        let median = worst.sorted()[worst.count / 2]
        let connected = connecting.sorted()[connecting.count / 2]
        table.add(Row(figure: "\(instances) instances, one 200 ms SQL migration run once: all past it after \(formatted(median))",
                      baseline: "the migration's 200 ms (\(instances) bare connections + SELECT 1 at once: \(formatted(connected)))",
                      ratio: median / 0.2, target: "≤ 300 ms", met: median <= 0.3))
    }

    /// How long `count` fresh connections, opened at once, take to answer `SELECT 1`: what the
    /// machine's fleet costs before any migration work.
    private static func connectingAtOnce(_ count: Int, to server: PostgresServer) async throws -> Double {
        let configuration = try server.configurationWithoutTLS()
        let logger = Logger(label: "bench", factory: { _ in SwiftLogNoOpLogHandler() })
        let clock = ContinuousClock()
        let start = clock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in 0..<count {
                group.addTask {
                    let connection = try await PostgresConnection.connect(configuration: configuration, id: id, logger: logger)
                    _ = try await connection.query("SELECT 1", logger: logger).collect()
                    try await connection.close()
                }
            }
            try await group.waitForAll()
        }
        return seconds(start.duration(to: clock.now))
    }
}

private extension PostgresServer {
    /// The bare connection's configuration: the same server, no TLS.
    func configurationWithoutTLS() throws -> PostgresConnection.Configuration {
        PostgresConnection.Configuration(host: host, port: port, username: user, password: password, database: database, tls: .disable)
    }
}
#endif
