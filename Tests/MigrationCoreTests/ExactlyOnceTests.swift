import Foundation
import Testing
@testable import MigrationCore

/// "Exactly once" across store objects, threads, re-entrant calls, failures and resets.
@Suite("Exactly once")
struct ExactlyOnceTests {
    /// Runs `body` on another thread; whether it finished within 30 s, so that a deadlock is a
    /// failure rather than a hung suite.
    func finishes(_ body: @escaping @Sendable () -> Void) -> Bool {
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            body()
            done.signal()
        }
        return done.wait(timeout: .now() + 30) == .success
    }

    @Test func aResetMadeByAnotherStoreObjectIsSeenByTheNextCall() {
        let suite = "migration-stale-\(UUID().uuidString)"
        let defaults = UserDefaults(suiteName: suite)!
        defer { defaults.removePersistentDomain(forName: suite) }
        let migrator = Migrator(appVersion: "1.0", store: UserDefaultsMigrationStore(defaults: defaults))
        var runs = 0
        migrator.migrateToVersion("1.0") { runs += 1 }
        Migrator(appVersion: "1.0", store: UserDefaultsMigrationStore(defaults: defaults)).reset()
        migrator.migrateToVersion("1.0") { runs += 1 }
        defaults.removePersistentDomain(forName: suite)                     // the app clears its defaults
        migrator.migrateToVersion("1.0") { runs += 1 }
        #expect(runs == 3)
        #if canImport(Darwin)
        // Apple's Foundation reports every change, so a leftover [MTMigration reset] is seen at
        // once; swift-corelibs-foundation reports none for removeObject (see MarksCache).
        defaults.removeObject(forKey: "MTMigration.lastMigrationVersion")
        migrator.migrateToVersion("1.0") { runs += 1 }
        #expect(runs == 4)
        #endif
    }

    @Test func aResetOfTheFileByAnotherStoreObjectIsSeenByTheNextCall() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("state.json")
        let migrator = Migrator(appVersion: "1.0", store: FileMigrationStore(url: url))
        var runs = 0
        migrator.migrateToVersion("1.0") { runs += 1 }
        try FileMigrationStore(url: url).update { $0 = MigrationRule.reset($0) }
        migrator.migrateToVersion("1.0") { runs += 1 }
        #expect(runs == 2)
    }

    @Test func twoMigratorsOnTheSameDefaultsNeverRunABlockTwice() async {
        let suite = "migration-race-\(UUID().uuidString)"
        let defaults = UserDefaults(suiteName: suite)!
        defer { defaults.removePersistentDomain(forName: suite) }
        let runs = Recorder<String>()
        let shared = SharedDefaults(defaults: defaults)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<16 {
                group.addTask {
                    let migrator = Migrator(appVersion: "1.0", store: UserDefaultsMigrationStore(defaults: shared.defaults))
                    for version in ["0.1", "0.2", "1.0"] {
                        migrator.migrateToVersion(version) {
                            runs.append(version)
                            Thread.sleep(forTimeInterval: 0.005)
                        }
                    }
                    migrator.applicationUpdateBlock { runs.append("update") }
                }
            }
        }
        #expect(runs.items.sorted() == ["0.1", "0.2", "1.0", "update"])
    }

    @Test func twoFileStoresInDifferentDomainsOnOneFileDoNotDeadlock() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("state.json")
        let ran = Recorder<String>()
        let finished = finishes {
            let defaultsLevel = Migrator(appVersion: "2", store: FileMigrationStore(url: url, domain: "defaults"))
            let databaseLevel = Migrator(appVersion: "3", store: FileMigrationStore(url: url, domain: "database"))
            defaultsLevel.migrateToVersion("2") {
                ran.append("defaults 2")
                databaseLevel.migrateToVersion("3") { ran.append("database 3") }
            }
        }
        #expect(finished, "deadlocked: still waiting after 30 s")
        #expect(ran.items == ["defaults 2", "database 3"])
        #expect(try FileMigrationStore(url: url, domain: "database").load().lastMigratedVersion == "3")
        #expect(try FileMigrationStore(url: url, domain: "defaults").load().lastMigratedVersion == "2")
    }

    @Test func aBlockWaitingOnAnotherThreadThatCallsTheMigratorDoesNotDeadlock() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let migrator = Migrator(appVersion: "1.2", store: FileMigrationStore(url: folder.appendingPathComponent("state.json")))
        let ran = Recorder<String>()
        let finished = finishes {
            migrator.migrateToVersion("1.1") {
                let other = DispatchSemaphore(value: 0)
                Thread.detachNewThread {
                    migrator.migrateToVersion("1.2") { ran.append("1.2") }
                    other.signal()
                }
                other.wait()
                ran.append("1.1")
            }
        }
        #expect(finished, "deadlocked: still waiting after 30 s")
        #expect(ran.items == ["1.2", "1.1"])
        #expect(try migrator.store.load().lastMigratedVersion == "1.2")
    }

    @Test(arguments: ["memory", "file", "defaults"])
    func reentrantCallsKeepBothRecords(kind: String) throws {
        let folder = try temporaryFolder()
        let suite = "migration-nested-\(UUID().uuidString)"
        defer {
            try? FileManager.default.removeItem(at: folder)
            UserDefaults(suiteName: suite)!.removePersistentDomain(forName: suite)
        }
        let store: any MigrationStore = switch kind {
        case "file": FileMigrationStore(url: folder.appendingPathComponent("state.json"))
        case "defaults": UserDefaultsMigrationStore(defaults: UserDefaults(suiteName: suite)!)
        default: InMemoryMigrationStore()
        }
        let migrator = Migrator(appVersion: "1.0", appBuild: "7", store: store)
        var ran: [String] = []
        migrator.migrateToVersion("0.9") {
            migrator.migrateToBuild("7") { ran.append("build 7") }
            migrator.migrateToVersion("0.9") { ran.append("0.9 again") }
            ran.append("0.9")
        }
        #expect(ran == ["build 7", "0.9"])
        let state = try store.load()
        #expect(state.lastMigratedVersion == "0.9")
        #expect(state.lastMigratedBuild == "7")
        Migrator(appVersion: "1.0", appBuild: "7", store: store).migrateToBuild("7") { ran.append("next launch") }
        #expect(ran == ["build 7", "0.9"])
    }

    @Test func aBlockThatRanButCouldNotBeRecordedIsReportedAsSuch() {
        let diagnostics = Recorder<MigrationDiagnostic>()
        let migrator = Migrator(appVersion: "1.0", store: SaveRefusingStore(allowedSaves: 0), onDiagnostic: { diagnostics.append($0) })
        var ran = false
        migrator.migrateToVersion("1.0") { ran = true }
        #expect(ran)
        #expect(diagnostics.items.first?.problem.hasPrefix("ran, but could not be recorded: it will run again next launch") == true)
    }

    @Test func aFailedSaveInARegistryRunEndsTheWalk() throws {
        let ran = Recorder<String>()
        var registry = MigrationRegistry()
        registry.onUpdate(title: "version hook") { _ in ran.append("version hook") }
        registry.onBuildUpdate(title: "build hook") { _ in ran.append("build hook") }
        // The hook's record is saved; the app version after it is not.
        let store = SaveRefusingStore(allowedSaves: 1)
        let report = try MigrationRunner(registry: registry, target: AppTarget(version: "1.0", build: "10")).run(store: store)
        #expect(ran.items == ["version hook"])
        #expect(report.saveError != nil)
        #expect(!report.succeeded)
    }

    @Test func anUnwritableStoreRunsNoBody() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = FileMigrationStore(url: folder.appendingPathComponent("state.json"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(".state.json.tmp"), withIntermediateDirectories: false)
        let diagnostics = Recorder<MigrationDiagnostic>()
        var runs = 0
        for _ in 0..<3 {
            Migrator(appVersion: "1.0", store: store, onDiagnostic: { diagnostics.append($0) }).migrateToVersion("1.0") { runs += 1 }
        }
        #expect(runs == 0)
        try #require(diagnostics.items.count == 3)
        #expect(diagnostics.items[0].problem.contains("did not run") && diagnostics.items[0].problem.contains("cannot be written"))

        let registryRuns = Recorder<String>()
        var registry = MigrationRegistry()
        registry.migrate(toVersion: "1.0", title: "one") { _ in registryRuns.append("1.0") }
        let report = try MigrationRunner(registry: registry, target: AppTarget(version: "1.0")).run(store: store)
        #expect(registryRuns.items.isEmpty)
        #expect(report.saveError != nil)
    }

    @Test func aHookThatSucceededNeverRunsAgainWhenALaterOneFails() throws {
        struct Flaky: Error {}
        let emails = Recorder<String>()
        let failOnce = Locked(true)
        var registry = MigrationRegistry()
        registry.onUpdate(title: "Send welcome email") { _ in emails.append("sent") }
        registry.onUpdate(title: "Refresh caches") { _ in
            if failOnce.withLock({ fail in defer { fail = false }; return fail }) { throw Flaky() }
        }
        let store = InMemoryMigrationStore(state: .device(at: try Version("1.0")))
        let runner = MigrationRunner(registry: registry, target: try AppTarget(version: "1.1"))
        #expect(try !runner.run(store: store).succeeded)
        #expect(store.load().lastAppVersion == "1.0")
        #expect(try runner.plan(store: store).hooks.map(\.fires) == [false, true])
        #expect(try runner.run(store: store).succeeded)
        #expect(emails.items == ["sent"])
        #expect(store.load().lastAppVersion == "1.1")
        // The next update fires both again.
        #expect(try MigrationRunner(registry: registry, target: AppTarget(version: "1.2")).run(store: store).succeeded)
        #expect(emails.items == ["sent", "sent"])
    }

    @Test func dropInBaselineIsShownAsAppliedAndMatchesTheRegistrysBaseline() throws {
        var registry = MigrationRegistry()
        for version in ["0.9", "1.0"] { registry.migrate(toVersion: version, title: version) }
        let target = try AppTarget(version: "1.0", build: "10")
        let dropIn = InMemoryMigrationStore()
        Migrator(appVersion: "1.0", appBuild: "10", store: dropIn, policy: .baseline).migrateToVersion("0.9") {}
        let plan = try MigrationRunner(registry: registry, target: target).plan(store: dropIn)
        #expect(plan.entries.map(\.status) == [.applied, .applied])

        let viaRegistry = InMemoryMigrationStore()
        _ = try MigrationRunner(registry: registry, target: target, policy: .baseline).run(store: viaRegistry)
        #expect(viaRegistry.load() == dropIn.load())
    }

    @Test func resetUnderTheBaselinePolicyRunsEverythingAgain() {
        let store = InMemoryMigrationStore()
        let migrator = Migrator(appVersion: "1.0", store: store, policy: .baseline)
        var ran: [String] = []
        migrator.migrateToVersion("0.9") { ran.append("first launch") }
        migrator.reset()
        migrator.migrateToVersion("0.9") { ran.append("0.9") }
        migrator.applicationUpdateBlock { ran.append("update") }
        #expect(ran == ["0.9", "update"])
    }

    @Test func aStoreReachedThroughASymbolicLinkIsTheSameStore() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let real = folder.appendingPathComponent("real")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: false)
        let file = real.appendingPathComponent("s.json")
        let link = folder.appendingPathComponent("link.json")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "real/s.json")
        let runs = Recorder<String>()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    let store = FileMigrationStore(url: index.isMultiple(of: 2) ? link : file)
                    Migrator(appVersion: "1.0", store: store).migrateToVersion("1.0") { runs.append("1.0") }
                }
            }
        }
        #expect(runs.items == ["1.0"])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == "real/s.json")
        #expect(try FileMigrationStore(url: file).load().lastMigratedVersion == "1.0")
    }

    @Test(arguments: [
        (#"{"format": 1, "domains": {"default": {"lastMigratedVersoin": "3.0"}}}"#, "lastMigratedVersoin"),
        (#"{"format": 1, "domains": {"default": {}}, "comment": "mine"}"#, "comment"),
        (#"{"format": 1, "domains": {"default": {"lastMigratedVersion": "1.0", "lastMigratedVersion": "3.0"}}}"#, "domains.default.lastMigratedVersion"),
        (#"{"format": 1, "domains": {"default": {"lastMigratedVersion": 3}}}"#, "lastMigratedVersion"),
        (#"{"format": 1, "domains": {"default": {"lastMigratedVersion": "0.1",}}}"#, #"trailing comma before "}" in "domains.default""#),
        (#"{"format": 1, "domains": {"default": {"history": [],}},}"#, "trailing comma"),
    ])
    func storeFilesAreReadStrictly(contents: String, named: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("state.json")
        try Data(contents.utf8).write(to: url)
        var ran = false
        let diagnostics = Recorder<MigrationDiagnostic>()
        Migrator(appVersion: "3.0", store: FileMigrationStore(url: url), onDiagnostic: { diagnostics.append($0) })
            .migrateToVersion("1.0") { ran = true }
        #expect(!ran)
        let error = try #require(throws: MigrationStoreError.self) { try FileMigrationStore(url: url).load() }
        #expect(error.description.contains(named))
        #expect(try Data(contentsOf: url) == Data(contents.utf8))
    }
}
