import Foundation
import MigrationCore

/// Goal 2: the first `migrateToVersion` of a launch, timed inside fresh processes (this
/// executable started again with ``childFlag``), over records an earlier launch wrote.
enum ColdStartBenchmark {
    static let childFlag = "--cold-child"
    private static let declared = versions(10)

    /// In a child: times the first call of `kind` and prints its nanoseconds and the page
    /// faults taken during it.
    static func child(_ arguments: [String]) throws {
        let (kind, place) = (arguments[0], arguments[1])
        let app = declared.last!
        let clock = ContinuousClock()
        let elapsed: Duration
        let faultsBefore = minorPageFaults()
        switch kind {
        case "mtmigration":
            let defaults = UserDefaults(suiteName: place)!
            elapsed = clock.measure { MTMigrationBaseline(defaults: defaults, appVersion: app).migrateToVersion(declared[0]) {} }
        case "floor":
            let defaults = UserDefaults(suiteName: place)!
            elapsed = clock.measure { floorCall(defaults: defaults, app: app, version: declared[0]) {} }
        case "defaults":
            let defaults = UserDefaults(suiteName: place)!
            elapsed = clock.measure {
                Migrator(appVersion: app, store: UserDefaultsMigrationStore(defaults: defaults)).migrateToVersion(declared[0]) {}
            }
        default:
            let url = URL(fileURLWithPath: place)
            elapsed = clock.measure { Migrator(appVersion: app, store: FileMigrationStore(url: url)).migrateToVersion(declared[0]) {} }
        }
        let faults = minorPageFaults() - faultsBefore
        UserDefaults(suiteName: place)?.synchronize()  // were anything written, the next launch sees it
        print(Int(seconds(elapsed) * 1e9), faults)
    }

    /// The least a first call over `UserDefaults` can do, written in the caller: parse both
    /// versions, read MTMigration's key once, compare. No store, no migrator, no other keys.
    @inline(__always)
    private static func floorCall(defaults: UserDefaults, app: String, version: String, _ block: () -> Void) {
        guard let app = try? Version(app), let version = try? Version(version) else { return }
        let last = defaults.string(forKey: "MTMigration.lastMigrationVersion").flatMap { try? Version($0) }
        if last.map({ version > $0 }) ?? true, version <= app { block() }
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
        var faults: [String: [Int]] = [:]
        for _ in 0..<31 {
            for (kind, place) in [("mtmigration", suite), ("floor", suite), ("defaults", suite), ("file", file)] {
                let call = try firstCall(kind, place)
                times[kind, default: []].append(call.seconds)
                faults[kind, default: []].append(call.faults)
            }
        }
        let median = times.mapValues { $0.sorted()[$0.count / 2] }
        let medianFaults = faults.mapValues { $0.sorted()[$0.count / 2] }
        func figure(_ name: String, _ kind: String) -> String {
            "\(name): \(formatted(median[kind]!)), \(medianFaults[kind]!) page faults"
        }
        let baseline = figure("MTMigration in a fresh process", "mtmigration")
        print("\nCold first call, fresh processes, records from an earlier launch (median of 31)")
        table.ratio(figure("cold first call, UserDefaults", "defaults"), median["defaults"]!, baseline: baseline,
                    median["mtmigration"]!, atMost: 1)
        table.ratio(figure("cold first call, file written by an earlier launch", "file"), median["file"]!,
                    baseline: baseline, median["mtmigration"]!, atMost: 1)
        table.add(Row(figure: figure("cold first call, floor: parse, read one key, compare, in the caller", "floor"),
                      baseline: baseline, ratio: median["floor"]! / median["mtmigration"]!, target: "reported", met: nil))
    }

    private static func firstCall(_ kind: String, _ place: String) throws -> (seconds: Double, faults: Int) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ownPath())
        process.arguments = [childFlag, kind, place]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let fields = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard fields.count == 2, let nanoseconds = Double(fields[0]), let faults = Int(fields[1]) else {
            throw BenchError("the cold-start child for \(kind) printed no time")
        }
        return (nanoseconds / 1e9, faults)
    }

    /// The page faults this process has taken so far that needed no disk read: on this path,
    /// mostly code and data touched for the first time.
    private static func minorPageFaults() -> Int {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        return usage.ru_minflt
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
