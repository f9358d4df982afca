import Foundation

/// The shipped `migration-explorer` on manifests with many releases: `plan` and `matrix` take
/// time in proportion to the releases, so each figure's baseline is the same command on a
/// fraction of them, measured in the same run (a quadratic path would show the square).
enum ReleaseGrowthBenchmark {
    static func run(_ table: Table) throws {
        let binary = try BinaryBenchmark.shippedBinary()
        let folder = temporaryFolder("releases")
        defer { try? FileManager.default.removeItem(at: folder) }
        for (command, small, large) in [("plan", 2_000, 16_000), ("matrix", 500, 2_000)] {
            let times = try [small, large].map { releases in
                let manifest = try write(releases: releases, in: folder)
                return (0..<3).map { _ in BinaryBenchmark.measured(binary, [command, "--json", "--manifest", manifest]).seconds }.min()!
            }
            let factor = Double(large / small)
            table.add(Row(figure: "`\(command) --json`, \(large.formatted()) releases: \(formatted(times[1]))",
                          baseline: "\(small.formatted()) releases: \(formatted(times[0]))", ratio: times[1] / times[0],
                          target: String(format: "≤ %.0f× (linear: %.0f×)", factor * 1.5, factor), met: times[1] / times[0] <= factor * 1.5))
        }
    }

    /// A manifest of `releases` releases and 20 migrations among them, one added late (out of
    /// order on the devices past it); its path.
    private static func write(releases: Int, in folder: URL) throws -> String {
        let all = versions(releases + 1).dropFirst()
        let migrations = (1...20).map { step in
            let version = all[all.startIndex + step * (releases - 1) / 20]
            let since = step == 5 ? #", "since": "\#(all.last!)""# : ""
            return #"{"version": "\#(version)", "title": "Migration \#(version)"\#(since)}"#
        }
        let url = folder.appendingPathComponent("releases-\(releases).json")
        let listed = all.map { "\"\($0)\"" }.joined(separator: ", ")
        try Data(#"{"app": "Bench", "appVersion": "9.0", "releases": [\#(listed)], "migrations": [\#(migrations.joined(separator: ",\n"))]}"#.utf8)
            .write(to: url)
        return url.path
    }
}
