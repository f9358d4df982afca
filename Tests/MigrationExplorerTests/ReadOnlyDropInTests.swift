#if SQLite
import Foundation
import GRDB
import MigrationCore
import MigrationSQLite
import Testing

/// The drop-in API's blocks on a store file this process may not write: each block proves,
/// before its body, that its record can be written, so no body runs that would run again.
@Suite("Drop-in blocks on a read-only store file", .enabled(if: ImmutableFile.canBeMade))
struct ReadOnlyDropInTests {
    /// Runs `body` with `file` made read-only, and makes it writable again afterwards.
    private func withReadOnly(_ file: URL, _ body: () throws -> Void) throws {
        try ImmutableFile.make(file)
        defer { ImmutableFile.undo(file) }
        try body()
    }

    @Test(arguments: ["json", "plist"])
    func aDropInBlockDoesNotRunOnAReadOnlyStoreFile(_ kind: String) throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("state.\(kind)")
        let store: any MigrationStore = kind == "json" ? FileMigrationStore(url: url) : PropertyListMigrationStore(url: url)
        try store.update { $0 = .device(at: try Version("0.9")) }
        let before = try Data(contentsOf: url)
        try withReadOnly(url) { () throws in
            var ran = false
            Migrator(appVersion: "1.0", store: store).migrateToVersion("1.0") { ran = true }
            #expect(!ran, "the body ran, and its record could not be written")
            #expect(throws: MigrationStoreError.self) { try store.checkWritable() }
        }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func aDropInBlockDoesNotRunOnAReadOnlySQLiteDatabaseThatHoldsRecords() throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Records made through another file: this process keeps one connection per file, open.
        let setup = folder.appendingPathComponent("setup.sqlite").path
        try SQLiteMigrationStore(path: setup).update { $0 = .device(at: try Version("0.9")) }
        let path = folder.appendingPathComponent("app.sqlite").path
        try DatabaseQueue(path: setup).writeWithoutTransaction { try $0.execute(sql: "VACUUM INTO ?", arguments: [path]) }
        try DatabaseQueue(path: path).writeWithoutTransaction { _ = try String.fetchOne($0, sql: "PRAGMA journal_mode = WAL") }
        let url = URL(fileURLWithPath: path)
        try withReadOnly(url) { () throws in
            let store = SQLiteMigrationStore(path: path)
            #expect(try store.load().lastMigratedVersion == "0.9")
            var ran = false
            Migrator(appVersion: "1.0", store: store).migrateToVersion("1.0") { ran = true }
            #expect(!ran, "the body ran, and its record could not be written")
        }
    }
}
#endif
