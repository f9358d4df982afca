import Foundation
import MigrationCore
import MigrationPostgres
import MigrationTestSupport
import ThrowawayPostgresServer
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The store against a real server: each test in a database of its own.
@Suite struct PostgresMigrationStoreTests {
    @Test func aRunAppliesEachSQLMigrationWithItsRecordAndNamesTheHostAndProcess() async throws {
        let database = try TestDatabase()
        let report = try await runner().run(store: try database.store())
        #expect(report.succeeded, "\(report.steps.map(\.outcome))")
        #expect(try database.answer("SELECT string_agg(version, ',' ORDER BY version) FROM note") == "1.1,1.2")
        let state = try database.store().load()
        #expect(state.lastMigratedVersion == "1.2")
        #expect(state.history.filter { $0.outcome == .succeeded }.compactMap(\.identifier) == ["1.0", "1.1", "1.2"])
        let writers = try database.answer("SELECT DISTINCT host || ' ' || pid FROM migration_explorer.history")
        #expect(writers == "\(ProcessInfo.processInfo.hostName) \(getpid())")
    }

    @Test func aRerunRunsNothing() async throws {
        let database = try TestDatabase()
        _ = try await runner().run(store: try database.store())
        let again = try await runner().run(store: try database.store())
        #expect(again.succeeded)
        #expect(again.steps.isEmpty, "\(again.steps.map(\.subject.label))")
        #expect(try database.count("note") == 2)
    }

    @Test func aDryRunExecutesNoSQLAndWritesNothing() async throws {
        let database = try TestDatabase()
        let preview = try runner().dryRun(store: try database.store())
        #expect(preview.steps.map(\.outcome) == [.wouldRun, .wouldRun, .wouldRun])
        #expect(try database.count("note") == nil)
        #expect(try database.answer("SELECT to_regnamespace('migration_explorer') IS NULL") == "t")
    }

    @Test func aFailingStatementRollsBackItsMigrationAndIsRecordedAsFailed() async throws {
        let database = try TestDatabase()
        let report = try await runner(noteRegistry(failingAt: "1.2")).run(store: try database.store())
        #expect(report.failure?.subject.label.contains("1.2") == true)
        #expect(failureText(report).contains("division by zero"), "\(failureText(report))")
        #expect(try database.answer("SELECT string_agg(version, ',') FROM note") == "1.1")
        let state = try database.store().load()
        #expect(state.lastMigratedVersion == "1.1")
        #expect(state.history.last?.outcome == .failed)
        let fixed = try await runner().run(store: try database.store())
        #expect(fixed.succeeded)
        #expect(try database.answer("SELECT string_agg(version, ',' ORDER BY version) FROM note") == "1.1,1.2")
    }

    @Test func eachDomainKeepsItsOwnRecords() async throws {
        let database = try TestDatabase()
        var registry = MigrationRegistry(appName: "Counter")
        registry.migrate(toVersion: "1.0", title: "Count", postgres: { transaction, _ in
            try transaction.execute("CREATE TABLE IF NOT EXISTS runs (n int); INSERT INTO runs VALUES (1)")
        })
        let counter = try runner(registry, to: "1.0")
        _ = try await counter.run(store: try database.store(domain: "eu"))
        _ = try await counter.run(store: try database.store(domain: "us"))
        _ = try await counter.run(store: try database.store(domain: "eu"))
        #expect(try database.count("runs") == 2)
        #expect(try database.store().domains() == ["eu", "us"])
        #expect(try database.store(domain: "asia").load() == .freshInstall)
    }

    @Test func aSchemaOfItsOwnNameHoldsTheTables() async throws {
        let database = try TestDatabase()
        _ = try await runner().run(store: try database.store(schema: "deploys"))
        #expect(try database.answer("SELECT count(*) FROM deploys.marks") == "1")
        #expect(try database.answer("SELECT to_regnamespace('migration_explorer') IS NULL") == "t")
    }

    @Test func aResetForgetsTheMarksSoEveryMigrationIsDueAgain() async throws {
        let database = try TestDatabase()
        _ = try await runner().run(store: try database.store())
        let store = try database.store()
        try store.withoutRuns { try store.update { $0 = MigrationRule.reset($0) } }
        #expect(try store.load().lastMigratedVersion == nil)
        #expect(try runner().plan(store: store).pending.count == 3)
    }

    @Test func aBlockFromSynchronousCodeOutsideATaskIsRefusedSayingWhy() async throws {
        let database = try TestDatabase()
        let store = try database.store()
        let result = Locked<Result<RunReport, any Error>?>(nil)
        let thread = Thread {
            let outcome = Result { try runner().run(store: store) }
            result.withLock { $0 = outcome }
        }
        thread.start()
        await #expect(waitUntil { result.value != nil })
        let report = try #require(try result.value?.get())
        #expect(failureText(report).contains("is a network store"), "\(failureText(report))")
        #expect(try database.count("note") == nil)
    }

    @Test func theStoresConnectionIsClosedOnExec() throws {
        let database = try TestDatabase()
        let store = try database.store()
        try store.connect()
        let connections = socketsConnected(toPort: database.server.port)
        #expect(!connections.isEmpty, "no connection to the server found")
        for descriptor in connections {
            #expect(fcntl(descriptor, F_GETFD) & FD_CLOEXEC != 0, "the connection's descriptor \(descriptor) would be inherited by a command")
        }
    }

    /// The descriptors of this process that are TCP connections to `port` on this machine.
    private func socketsConnected(toPort port: Int) -> [Int32] {
        let remote = String(format: ":%04X", port)
        // Read to the end: procfs files have no size for Foundation to read by.
        let table = ["/proc/net/tcp", "/proc/net/tcp6"].map { path in
            String(decoding: FileHandle(forReadingAtPath: path)?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        }.joined()
        let inodes = Set(table.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: " ")
            guard fields.count > 9, fields[2].hasSuffix(remote) else { return nil }
            return String(fields[9])
        })
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return entries.compactMap(Int32.init).filter { descriptor in
            guard let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)"),
                  link.hasPrefix("socket:[") else { return false }
            return inodes.contains(String(link.dropFirst(8).dropLast()))
        }
    }
}
