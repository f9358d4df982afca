import Foundation
import MigrationCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Goal 3: a fresh install running n migrations through the drop-in API, on each store: the
/// time a step takes must not grow with n, and on the file store each step is flushed.
enum FreshInstallBenchmark {
    static func run(_ table: Table) throws {
        print("\nFresh install, n migrations, drop-in API, time per step")
        let counts = [100, 1_000, 5_000]
        for kind in ["memory", "UserDefaults", "file"] {
            var perStep: [Int: Double] = [:]
            for count in counts {
                let total = try freshInstall(count, on: kind)
                perStep[count] = total / Double(count)
                print("  \(kind), \(count): \(formatted(total)) (\(formatted(total / Double(count))) a step)")
            }
            table.ratio("fresh install on \(kind), 5,000: \(formatted(perStep[5_000]!)) a step", perStep[5_000]!,
                        baseline: "100: \(formatted(perStep[100]!)) a step", perStep[100]!, atMost: 1.5)
            if kind == "file" {
                let floor = flushedAppends(1_000)
                let total = perStep[1_000]! * 1_000
                table.add(Row(figure: "fresh install on a file, 1,000 migrations: \(formatted(total))",
                              baseline: "1,000 appends of one line, each flushed: \(formatted(floor))", ratio: total / floor,
                              target: "≤ 2 s", met: total <= 2))
            }
        }
    }

    private static func freshInstall(_ count: Int, on kind: String) throws -> Double {
        let declared = versions(count)
        let folder = temporaryFolder("fresh")
        defer { try? FileManager.default.removeItem(at: folder) }
        let suite = "migration-bench-fresh-\(UUID().uuidString)"
        let defaults = UserDefaults(suiteName: suite)!
        defer { defaults.removePersistentDomain(forName: suite) }
        let store: any MigrationStore = switch kind {
        case "memory": InMemoryMigrationStore()
        case "UserDefaults": UserDefaultsMigrationStore(defaults: defaults)
        default: FileMigrationStore(url: folder.appendingPathComponent("state.json"))
        }
        let migrator = Migrator(appVersion: declared.last!, store: store)
        var ran = 0
        let elapsed = ContinuousClock().measure {
            for version in declared { migrator.migrateToVersion(version) { ran += 1 } }
        }
        // `UserDefaults` keeps a bounded history; the other stores keep every record.
        let history = try store.load().history
        guard ran == count, history.last?.identifier == declared.last, kind == "UserDefaults" || history.count == count else {
            throw BenchError("\(kind): \(ran) of \(count) ran, \(history.count) recorded")
        }
        return seconds(elapsed)
    }

    /// The least a durable step costs: appending one record-sized line and flushing it.
    private static func flushedAppends(_ count: Int) -> Double {
        let folder = temporaryFolder("floor")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("log").path
        let line = [UInt8](repeating: UInt8(ascii: "x"), count: 250) + [UInt8(ascii: "\n")]
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        defer { close(descriptor) }
        return seconds(ContinuousClock().measure {
            for _ in 0..<count {
                _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
                #if canImport(Darwin)
                fsync(descriptor)
                #else
                fdatasync(descriptor)
                #endif
            }
        })
    }
}
