import Foundation
import Testing

/// Compares `text` with `Snapshots/<name>.txt`; with `RECORD_SNAPSHOTS=1` in the environment
/// it writes the file instead (and the test fails, so a recording is never mistaken for a pass).
func assertSnapshot(_ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Snapshots")
    let url = folder.appendingPathComponent("\(name).txt")
    if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data((text + "\n").utf8).write(to: url)
        Issue.record("recorded \(url.lastPathComponent); run again without RECORD_SNAPSHOTS", sourceLocation: sourceLocation)
        return
    }
    guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
        Issue.record("no snapshot \(url.path); record it with RECORD_SNAPSHOTS=1", sourceLocation: sourceLocation)
        return
    }
    #expect(text + "\n" == expected, "screen differs from \(name).txt:\n\(text)", sourceLocation: sourceLocation)
}
