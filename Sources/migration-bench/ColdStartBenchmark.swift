import Foundation
import MigrationCore

/// Goal 2: the first `migrateToVersion` of a launch, timed inside fresh processes (this
/// executable started again with ``childFlag``), over records an earlier launch wrote.
enum ColdStartBenchmark {
    static let childFlag = "--cold-child"
    private static let declared = versions(10)

    /// In a child: times the first call of `kind` and prints its nanoseconds.
    static func child(_ arguments: [String]) throws {
        let (kind, place) = (arguments[0], arguments[1])
        let app = declared.last!
        let clock = ContinuousClock()
        let elapsed: Duration
        switch kind {
        case "mtmigration":
            let defaults = UserDefaults(suiteName: place)!
            elapsed = clock.measure { MTMigrationBaseline(defaults: defaults, appVersion: app).migrateToVersion(declared[0]) {} }
        case "defaults":
            let defaults = UserDefaults(suiteName: place)!
            elapsed = clock.measure {
                Migrator(appVersion: app, store: UserDefaultsMigrationStore(defaults: defaults)).migrateToVersion(declared[0]) {}
            }
        default:
            let url = URL(fileURLWithPath: place)
            elapsed = clock.measure { Migrator(appVersion: app, store: FileMigrationStore(url: url)).migrateToVersion(declared[0]) {} }
        }
        UserDefaults(suiteName: place)?.synchronize()  // were anything written, the next launch sees it
        print(Int(seconds(elapsed) * 1e9))
    }

    static func run(_ table: Table) throws {
        let suite = "migration-bench-cold-\(ProcessInfo.processInfo.processIdentifier)"
        let defaults = UserDefaults(suiteName: suite)!
        defer { defaults.removePersistentDomain(forName: suite) }
        let folder = temporaryFolder("cold")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("state.json").path
        // An earlier launch: every migration ran, on both stores.
        let app = declared.last!
        let earlier = [Migrator(appVersion: app, store: UserDefaultsMigrationStore(defaults: defaults)),
                       Migrator(appVersion: app, store: FileMigrationStore(url: URL(fileURLWithPath: file)))]
        for migrator in earlier {
            for version in declared { migrator.migrateToVersion(version) {} }
            migrator.applicationUpdateBlock {}
        }
        defaults.set(app, forKey: "MTMigration.lastMigrationVersion")
        defaults.synchronize()

        var times: [String: [Double]] = [:]
        for _ in 0..<15 {
            for (kind, place) in [("mtmigration", suite), ("defaults", suite), ("file", file)] {
                times[kind, default: []].append(try firstCall(kind, place))
            }
        }
        let median = times.mapValues { $0.sorted()[$0.count / 2] }
        let baseline = "MTMigration in a fresh process \(formatted(median["mtmigration"]!))"
        print("\nCold first call, fresh processes, records from an earlier launch (median of 15)")
        table.ratio("cold first call, UserDefaults: \(formatted(median["defaults"]!))", median["defaults"]!, baseline: baseline,
                    median["mtmigration"]!, atMost: 1)
        table.ratio("cold first call, file written by an earlier launch: \(formatted(median["file"]!))", median["file"]!,
                    baseline: baseline, median["mtmigration"]!, atMost: 1)
    }

    private static func firstCall(_ kind: String, _ place: String) throws -> Double {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ownPath())
        process.arguments = [childFlag, kind, place]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard let nanoseconds = Double(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BenchError("the cold-start child for \(kind) printed no time")
        }
        return nanoseconds / 1e9
    }
}

/// This executable's path.
func ownPath() -> String {
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
