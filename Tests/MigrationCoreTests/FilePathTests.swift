import Foundation
import Testing
@testable import MigrationCore

/// A file store finds its file by `URL.filePath`, which must be `URL.path` for every URL.
@Suite("URL.filePath")
struct FilePathTests {
    @Test(arguments: [
        "/var/lib/notes/state.json", "/tmp/with space/state.json", "/tmp/100%.json", "/tmp/a%20b.json", "/tmp/é/状態.json",
        "/tmp/folder/", "/", "relative/state.json", "state.json", "/tmp/a/../b/./c.json", "/tmp/a?b#c;d.json",
    ])
    func isThePathOfAFileURL(_ path: String) {
        let url = URL(fileURLWithPath: path)
        #expect(url.filePath == url.path)
    }

    @Test func isThePathOfAURLWithAnEscapedSlashOrABase() throws {
        let escaped = try #require(URL(string: "file:///tmp/a%2Fb/state.json"))
        #expect(escaped.filePath == escaped.path)
        let based = URL(fileURLWithPath: "state.json", relativeTo: URL(fileURLWithPath: "/tmp/base/"))
        #expect(based.filePath == based.path)
    }

    /// A name with a percent sign or a space is the file itself, not its decoded form.
    @Test(arguments: ["100%.json", "a%20b.json", "with space.json"])
    func aStoreKeepsItsRecordsInTheFileNamed(_ name: String) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent(name)
        let store = FileMigrationStore(url: url)
        #expect(store.location == url.path)
        Migrator(appVersion: "2.0", store: store).migrateToVersion("1.0") {}
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).contains(name))
        var ran = false
        Migrator(appVersion: "2.0", store: FileMigrationStore(url: url)).migrateToVersion("1.0") { ran = true }
        #expect(!ran)
        #expect(try FileMigrationStore(url: url).loadMarks().lastMigratedVersion == "1.0")
    }
}
