import Foundation
import MigrationManifest

/// The problems `Manifest.parse` lists for `json`, as printed; none when it reads.
///
/// ```swift
/// #expect(manifestProblems(#"{ "appVersion": "1.0", "migrations": [ 3 ] }"#).count == 1)
/// ```
func manifestProblems(_ json: String) -> [String] {
    do {
        _ = try Manifest.parse(Data(json.utf8), path: "m.json", folder: URL(fileURLWithPath: "/tmp"))
        return []
    } catch {
        return error.problems.map(\.description)
    }
}
