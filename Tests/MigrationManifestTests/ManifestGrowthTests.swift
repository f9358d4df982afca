import Foundation
import MigrationCore
import MigrationManifest
import Testing

/// A duplicate release is found by a look-up (so thousands of releases read in time in
/// proportion to them; `migration-bench releases` measures it) and named where it was first listed.
@Suite("Manifest releases")
struct ManifestGrowthTests {
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
