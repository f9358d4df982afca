import Foundation
import MigrationCore

// The goals' figures, each against a baseline measured in the same run, as one table.
// Run with: swift build -c release --product migration-explorer && swift run -c release migration-bench

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
// First, so that its peak memory is not the planning benchmarks'.
try TerminalUIBenchmark.run(into: table)
try WarmCheckBenchmark.run(into: table)
try ColdStartBenchmark.run(into: table)
try FreshInstallBenchmark.run(into: table)
try BinaryBenchmark.run(into: table)
try PlanBenchmark.run(into: table)
print("")
table.printMarkdown()
