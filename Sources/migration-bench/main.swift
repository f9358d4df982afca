import Foundation
import MigrationCore

// The goals' figures, each against a baseline measured in the same run, as one table.
// Run with: swift build -c release --product migration-explorer && swift run -c release migration-bench [section…]

/// Versions 0.0.1 … in ascending order.
func versions(_ count: Int) -> [String] {
    (0..<count).map { "\($0 / 10_000).\($0 / 100 % 100).\($0 % 100)" }
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == ColdStartBenchmark.childFlag {
    try ColdStartBenchmark.child(Array(arguments.dropFirst()))
    exit(0)
}

print("Migration Explorer benchmarks (release build)")
let table = Table()
// The terminal UI first, so that its peak memory is not the planning benchmarks'.
var sections: [(name: String, run: (Table) async throws -> Void)] = [
    ("tui", TerminalUIBenchmark.run), ("warm", WarmCheckBenchmark.run), ("cold", ColdStartBenchmark.run),
    ("fresh", FreshInstallBenchmark.run), ("sqlite", SQLiteStoreBenchmark.run), ("binary", BinaryBenchmark.run),
    ("plan", PlanBenchmark.run), ("releases", ReleaseGrowthBenchmark.run), ("live", LiveExplorerBenchmark.run),
]
#if PostgreSQL
sections.append(("postgres", PostgresStoreBenchmark.run))
#else
if arguments.contains("postgres") { print("postgres: built without the PostgreSQL trait (swift build --traits PostgreSQL)") }
#endif
// Arguments name the sections to run (say, `warm cold async`); none runs them all.
for section in sections where arguments.isEmpty || arguments.contains(section.name) {
    try await section.run(table)
}
if arguments.isEmpty || arguments.contains("async") {
    try await AsyncWarmCheckBenchmark.run(table)
}
print("")
table.printMarkdown()
