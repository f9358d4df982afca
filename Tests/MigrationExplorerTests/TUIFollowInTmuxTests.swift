import Foundation
import MigrationTestSupport
import Testing
@testable import MigrationExplorer

/// The built binary in tmux follows its store and its manifest with no key pressed: a run by
/// another process, a manifest saved by renaming over it, an invalid save and its fix.
@Suite("End to end in tmux: following the store and the manifest", .serialized)
struct TUIFollowInTmuxTests {
    static func manifest(_ versions: [(String, String)]) -> String {
        let migrations = versions.map { #"{ "version": "\#($0.0)", "title": "\#($0.1)" }"# }.joined(separator: ", ")
        return #"{ "app": "Ledger", "appVersion": "1.2", "migrations": [ \#(migrations) ] }"#
    }

    static let three = manifest([("1.0", "Add GUIDs"), ("1.1", "Split tags"), ("1.2", "Seed lists")])
    static let four = manifest([("1.0", "Add GUIDs"), ("1.1", "Split tags"), ("1.2", "Seed lists"), ("0.5", "Early fix")])

    @Test("a run by another process, a manifest edit, an invalid save and its fix", arguments: [(80, 24), (60, 18)])
    func theScreenFollowsWithoutAKey(width: Int, height: Int) async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manifest = folder.appendingPathComponent("m.json"), store = folder.appendingPathComponent("s.json")
        try manifest.write(Self.three)
        let tmux = try await Tmux(["--manifest", manifest.path, "--store", store.path], width: width, height: height)
        try await tmux.waitFor("3 pending")

        let run = try await Executable.run(["run", "--yes", "--manifest", manifest.path, "--store", store.path])
        #expect(run.status == 0, "\(run.stderr)")
        try await tmux.waitFor("3 applied", "Store changed: 1.0 Add GUIDs applied")

        let temporary = folder.appendingPathComponent(".m.json.swp")
        try temporary.write(Self.four)
        #expect(rename(temporary.path, manifest.path) == 0)
        try await tmux.waitFor("Manifest: 0.5 Early fix added", "Early fix")

        try manifest.write("{ \"app\": \"Ledger\",\n  \"appVersion\": ,\n}")
        let broken = try await tmux.waitFor("out of date: m.json")
        #expect(broken.contains("Early fix") && broken.contains("3 applied"), "the last good plan went:\n\(broken)")

        try manifest.write(Self.four)
        let fixed = try await tmux.screen { !$0.contains("out of date") }
        let screen = try await tmux.capture()
        #expect(fixed != nil, "the problem stays once fixed:\n\(screen)")
        try await tmux.send("q")
        #expect(try await tmux.exitStatus() == 0)
    }
}
