import Foundation
import Testing
@testable import MigrationCore
import MigrationTestSupport

/// The history stays bounded, a step appends instead of rewriting, and bounding never forgets
/// a record that decides something.
@Suite("History growth")
struct HistoryGrowthTests {
    private func record(_ subject: MigrationRecord.Subject, _ identifier: String?, _ title: String = "t",
                        _ outcome: MigrationRecord.Outcome = .succeeded, at second: Int = 0) -> MigrationRecord {
        MigrationRecord(subject: subject, identifier: identifier, title: title, date: Date(timeIntervalSince1970: Double(second)),
                        duration: 0, outcome: outcome)
    }

    @Test func boundingKeepsTheLatestRecordOfEachOutcomeOfEachMigrationAndHookAndTheLatestReset() {
        let history = [
            record(.versionMigration, "1.0", "t", .failed, at: 1), record(.reset, nil, at: 2), record(.versionMigration, "1.0", at: 3),
            record(.updateHook, "1.0", "a", at: 4), record(.updateHook, "1.0", "b", at: 5), record(.reset, nil, at: 6),
            record(.updateHook, "1.0", "a", at: 7),
        ]
        let (kept, complete) = MigrationRule.boundedHistory(history)
        #expect(complete)
        #expect(kept.map { Int($0.date.timeIntervalSince1970) } == [1, 3, 5, 6, 7])
    }

    @Test func boundingPastTheLimitKeepsTheNewestAndSaysTheHistoryIsNoLongerComplete() {
        let history = (0..<(MigrationRule.historyLimit + 5)).map { record(.versionMigration, "0.\($0)", at: $0) }
        let (kept, complete) = MigrationRule.boundedHistory(history)
        #expect(!complete)
        #expect(kept.count == MigrationRule.historyLimit)
        #expect(kept.first?.identifier == "0.5")
    }

    /// On random histories, every hook decision and every migration's status and last record
    /// are the same before and after bounding.
    @Test(arguments: 0..<40) func boundingDecidesNothingDifferently(seed: Int) throws {
        var random = SplitMix(state: UInt64(seed))
        let versions = ["1.0", "1.1", "2.0"]
        var history: [MigrationRecord] = []
        for second in 0..<60 {
            let subjects: [MigrationRecord.Subject] = [.versionMigration, .buildMigration, .updateHook, .buildUpdateHook, .reset]
            let subject = subjects[Int(random.next() % 5)]
            history.append(record(subject, subject == .reset ? nil : versions[Int(random.next() % 3)], ["a", "b"][Int(random.next() % 2)],
                                  random.next() % 4 == 0 ? .failed : .succeeded, at: second))
        }
        let (kept, _) = MigrationRule.boundedHistory(history)
        for track in MigrationTrack.allCases {
            for app in versions {
                for title in ["a", "b"] {
                    #expect(MigrationRule.hookRan(title, on: track, for: try Version(app), in: kept)
                        == MigrationRule.hookRan(title, on: track, for: try Version(app), in: history))
                }
            }
        }
        var registry = MigrationRegistry()
        for version in versions {
            registry.migrate(toVersion: version, title: version)
            registry.migrate(toBuild: version, title: version)
        }
        let target = try AppTarget(version: "1.1", build: "1.1")
        func plan(_ history: [MigrationRecord]) throws -> MigrationPlan {
            try MigrationPlan(registry: registry, state: MigrationState(lastMigratedVersion: "1.0", lastMigratedBuild: "1.1",
                                                                       history: history, historyIsComplete: true), target: target)
        }
        let before = try plan(history), after = try plan(kept)
        #expect(before.entries.map(\.status) == after.entries.map(\.status))
        #expect(registry.migrations.map { before.lastRecord(of: $0) } == registry.migrations.map { after.lastRecord(of: $0) })
    }

    /// Two lines: the migration's start (its attempt, flushed before the body), then its record.
    @Test func aStepAppendsItsStartAndItsRecordAndLeavesTheRestOfTheFileAsItWas() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("state.json")
        let migrator = Migrator(appVersion: "3.0", store: FileMigrationStore(url: url))
        migrator.migrateToVersion("1.0") {}
        let before = try Data(contentsOf: url)
        migrator.migrateToVersion("2.0") {}
        let after = try Data(contentsOf: url)
        #expect(after.starts(with: before))
        let added = String(decoding: after.dropFirst(before.count), as: UTF8.self)
        let lines = added.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.contains(#""started":["#) == true && lines.first?.contains(#""identifier":"2.0""#) == true)
        #expect(lines.last?.contains(#""lastMigratedVersion":"2.0""#) == true && lines.last?.hasSuffix(#""started":[]}"#) == true,
                "the record takes the start back in its own line")
        let state = try FileMigrationStore(url: url).load()
        #expect(state.lastMigratedVersion == "2.0")
        #expect(state.history.map(\.identifier) == ["1.0", "2.0"])
    }

    /// A step proves it can append its line, rather than writing a whole file's worth beside it.
    @Test func aFileInTheLinesLayoutTakesAppendsUntilALineIsCutShort() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("state.json")
        let file = RecordsFile(path: url.path, location: "test")
        #expect(!file.canAppend())
        Migrator(appVersion: "3.0", store: FileMigrationStore(url: url)).migrateToVersion("1.0") {}
        #expect(file.canAppend())
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"domain":"#.utf8))
        try handle.close()
        #expect(!file.canAppend())
    }

    @Test func aLineCutShortByACrashIsIgnoredAndTheNextStepStillRecords() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("state.json")
        Migrator(appVersion: "3.0", store: FileMigrationStore(url: url)).migrateToVersion("1.0") {}
        let handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"domain":"default","marks":{"lastMigratedVersion":"9"#.utf8))
        try handle.close()
        #expect(try FileMigrationStore(url: url).loadMarks().lastMigratedVersion == "1.0")
        var ran: [String] = []
        Migrator(appVersion: "3.0", store: FileMigrationStore(url: url)).migrateToVersion("2.0") { ran.append("2.0") }
        #expect(ran == ["2.0"])
        let state = try FileMigrationStore(url: url).load()
        #expect(state.lastMigratedVersion == "2.0")
        #expect(state.history.map(\.identifier) == ["1.0", "2.0"])
    }

    @Test func aFormatOneFileIsReadAndItsFirstStepRewritesItKeepingTheHistory() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("state.json")
        try Data(#"""
        {"format": 1, "domains": {"default": {"lastMigratedVersion": "1.0", "historyIsComplete": true, "history": [
          {"subject": "versionMigration", "identifier": "1.0", "title": "one", "date": "2024-01-01T00:00:00Z", "duration": 0.5, "outcome": "succeeded"}
        ]}}}
        """#.utf8).write(to: url)
        var ran: [String] = []
        let migrator = Migrator(appVersion: "3.0", store: FileMigrationStore(url: url))
        for version in ["1.0", "2.0"] { migrator.migrateToVersion(version) { ran.append(version) } }
        #expect(ran == ["2.0"])
        #expect(try String(contentsOf: url, encoding: .utf8).hasPrefix(#"{"format":2,"#))
        #expect(try FileMigrationStore(url: url).load().history.map(\.title) == ["one", #"migrateToVersion("2.0")"#])
    }

    @Test func theLaunchPathReadsTheMarksAloneAndEveryOtherReadChecksEveryLine() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("state.json")
        try Data("""
        {"format":2,"compactedBytes":0}
        {"domain":"default","records":[{"subject":"versionMigration"}]}
        {"domain":"default","marks":{"historyIsComplete":true,"lastMigratedVersion":"2.0"}}

        """.utf8).write(to: url)
        let store = FileMigrationStore(url: url)
        #expect(try store.loadMarks().lastMigratedVersion == "2.0")
        let error = try #require(throws: MigrationStoreError.self) { try store.load() }
        #expect(error.description.contains("line 2"))
    }

    @Test func repeatedFailuresDoNotGrowTheFileWithoutBound() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("state.json")
        struct Failure: Error {}
        let migrator = Migrator(appVersion: "3.0", store: FileMigrationStore(url: url))
        for _ in 0..<600 { try? migrator.migrateToVersion("1.0") { throw Failure() } }
        let size = try #require(FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
        #expect(size < 100_000)
        let history = try FileMigrationStore(url: url).load().history
        #expect(history.last?.outcome == .failed)
        #expect(history.count < 400)
    }

    /// Runs `body` with a migrator for an app at 2000.0 on fresh defaults of its own.
    private func onFreshDefaults(_ body: (UserDefaults, UserDefaultsMigrationStore, Migrator) throws -> Void) rethrows {
        let suite = "migration-tests-\(UUID().uuidString)"
        let defaults = UserDefaults(suiteName: suite)!
        defer { defaults.removePersistentDomain(forName: suite) }
        let store = UserDefaultsMigrationStore(defaults: defaults)
        try body(defaults, store, Migrator(appVersion: "2000.0", store: store))
    }

    @Test func userDefaultsJoinsRecentRecordsIntoTheHistoryAndKeepsTheirOrder() throws {
        try onFreshDefaults { defaults, store, migrator in
            let versions = (1...200).map { "\($0).0" }
            for version in versions { migrator.migrateToVersion(version) {} }
            #expect(try store.load().history.map(\.identifier) == versions)
            #expect((defaults.array(forKey: "MigrationExplorer.recentHistory") ?? []).count < UserDefaultsKeys.recentLimit)
            let joined = try JSONDecoder.migrationRecords.decode([MigrationRecord].self, from: #require(defaults.data(forKey: "MigrationExplorer.history")))
            #expect(joined.count >= UserDefaultsKeys.recentLimit)
        }
    }

    /// Each write to `UserDefaults` may rewrite its whole file, so what the domain holds must
    /// not grow with the number of migrations run: it keeps a bounded history.
    @Test func userDefaultsKeepsABoundedHistoryWhateverTheNumberOfMigrations() throws {
        try onFreshDefaults { defaults, store, migrator in
            func storedBytes() -> Int {
                let recent = (defaults.array(forKey: "MigrationExplorer.recentHistory") as? [Data] ?? []).reduce(0) { $0 + $1.count }
                return (defaults.data(forKey: "MigrationExplorer.history")?.count ?? 0) + recent
            }
            for version in 1...(UserDefaultsKeys.historyLimit + UserDefaultsKeys.recentLimit) { migrator.migrateToVersion("\(version).0") {} }
            let early = storedBytes()
            for version in 1...800 { migrator.migrateToVersion("\(version + 400).0") {} }
            #expect(storedBytes() <= early + early / 4)
            let state = try store.load()
            #expect(state.lastMigratedVersion == "1200.0")
            #expect(state.history.last?.identifier == "1200.0")
            #expect(state.history.count <= UserDefaultsKeys.historyLimit + UserDefaultsKeys.recentLimit)
            #expect(!state.historyIsComplete)
            #expect(defaults.string(forKey: "MTMigration.lastMigrationVersion") == "1200.0")
        }
    }

    @Test func aFullWriteToUserDefaultsIsBoundedToo() throws {
        try onFreshDefaults { _, store, _ in
            let history = (0..<1_000).map { record(.versionMigration, "0.\($0)", at: $0) }
            try store.save(MigrationState(lastMigratedVersion: "0.999", history: history, historyIsComplete: true))
            let state = try store.load()
            #expect(state.history == Array(history.suffix(UserDefaultsKeys.historyLimit)))
            #expect(!state.historyIsComplete)
        }
    }

    /// Past the limit, the records a hook's "already ran for this update" reads are kept, so
    /// that a bounded history never runs a hook twice.
    @Test func boundingPastTheLimitKeepsEveryHookRecordSinceTheLatestReset() {
        let history = [record(.updateHook, "0.9", "old", at: 0), record(.reset, nil, at: 1), record(.updateHook, "1.0", "a", at: 2)]
            + (3..<40).map { record(.versionMigration, "0.\($0)", at: $0) }
        let (kept, complete) = MigrationRule.boundedHistory(history, limit: 10)
        #expect(!complete)
        #expect(kept.count == 11)
        #expect(kept.first?.title == "a")
        #expect(!kept.contains { $0.title == "old" })
        #expect(MigrationRule.hookRan("a", on: .version, for: try! Version("1.0"), in: kept))
    }

    @Test("the launch path reads every mark as a full read does", arguments: ["1.0", #"2.0 "beta""#, "é1", #"a\b"#, "", "9/1"])
    func launchReadAgreesWithFullRead(mark: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("state.json")
        for domain in ["default", "data/base"] {
            try FileMigrationStore(url: url, domain: domain).save(MigrationState(lastMigratedVersion: mark, lastAppBuild: "7", historyIsComplete: true))
        }
        for domain in ["default", "data/base"] {
            let marks = try FileMigrationStore(url: url, domain: domain).loadMarks()
            #expect(marks.lastMigratedVersion == mark && marks.lastAppBuild == "7" && marks.historyIsComplete)
            #expect(marks.lastAppVersion == nil && marks.lastMigratedBuild == nil)
        }
    }
}

/// Every domain of one file has marks of its own, though all share the file's lock.
@Suite("File domains")
struct FileDomainMarksTests {
    @Test func eachDomainReadsItsOwnMarks() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("state.json")
        try FileMigrationStore(url: url, domain: "a").save(MigrationState(lastMigratedVersion: "1.0"))
        try FileMigrationStore(url: url, domain: "b").save(MigrationState(lastMigratedVersion: "2.0"))
        #expect(try FileMigrationStore(url: url, domain: "a").loadMarks().lastMigratedVersion == "1.0")
        #expect(try FileMigrationStore(url: url, domain: "b").loadMarks().lastMigratedVersion == "2.0")
        var ran: [String] = []
        let a = Migrator(appVersion: "3.0", store: FileMigrationStore(url: url, domain: "a"))
        let b = Migrator(appVersion: "3.0", store: FileMigrationStore(url: url, domain: "b"))
        for version in ["1.5", "2.5"] {
            a.migrateToVersion(version) { ran.append("a \(version)") }
            b.migrateToVersion(version) { ran.append("b \(version)") }
        }
        #expect(ran == ["a 1.5", "a 2.5", "b 2.5"])
    }
}
