import Foundation
import MigrationCore
import MigrationManifest
import MigrationTestSupport
import Testing

/// A manifest with thousands of releases reads in time in proportion to them: a duplicate
/// release is found by a look-up, not by searching every release before it.
@Suite("Manifest growth")
struct ManifestGrowthTests {
    static func manifest(releases: Int) -> Data {
        let listed = (1...releases).map { "\"\($0 / 100).\($0 % 100)\"" }.joined(separator: ", ")
        return Data(#"{ "appVersion": "1.0", "releases": [\#(listed)], "migrations": [ { "version": "0.5", "title": "t" } ] }"#.utf8)
    }

    @Test func eightTimesTheReleasesTakesAboutEightTimesAsLong() throws {
        let ratio = try growth(from: 1_000) { releases in
            let read = try Manifest.parse(Self.manifest(releases: releases), path: "m.json", folder: URL(fileURLWithPath: "/tmp"))
            #expect(read.registry.releases.count == releases)
        }
        #expect(ratio < 24, "8 times the releases took \(ratio) times as long")
    }

    @Test func aDuplicateReleaseNamesWhereItWasFirstListed() {
        let json = #"{ "appVersion": "1.0", "releases": ["x", "0.9", "1.0", "0.9.0"], "migrations": [] }"#
        do {
            _ = try Manifest.parse(Data(json.utf8), path: "m.json", folder: URL(fileURLWithPath: "/tmp"))
            Issue.record("a duplicate release was accepted")
        } catch {
            #expect(error.problems.map(\.description).contains(#"releases[3]: "0.9.0" duplicates releases[1] ("0.9")"#), "\(error.problems)")
        }
    }
}
