import Foundation
import GRDB
import MigrationCore
import MigrationSQLite
import Testing

/// Checking that a SQLite store can be written must not touch the locks SQLite holds: closing
/// any descriptor of a file drops every POSIX lock the process holds on it, and another process
/// that then finds the `-shm` file unlocked rebuilds it under this one's memory map (a bus error).
@Suite struct SQLiteWriteCheckTests {
    /// The POSIX locks this process holds on the file at `path`, from the `lock:` lines of
    /// `/proc/self/fdinfo` for a descriptor this process has open on it. (Not `/proc/locks`: a
    /// read of that global list can miss entries while other tests take and drop locks.)
    private func locksHeld(on path: String) throws -> Int {
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
        guard let descriptor = descriptors.first(where: {
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == path
        }) else { return 0 }
        let pid = String(getpid())
        return try String(contentsOfFile: "/proc/self/fdinfo/\(descriptor)", encoding: .utf8).split(separator: "\n").filter { line in
            let fields = line.split(whereSeparator: \.isWhitespace)
            return fields.first == "lock:" && fields.count > 5 && fields[2] == "POSIX" && fields[5] == pid
        }.count
    }

    @Test func checkingThatASQLiteStoreCanBeWrittenKeepsTheLocksItsConnectionsHold() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("app.sqlite").path
        let store = SQLiteMigrationStore(path: path)
        try store.save(MigrationState(lastMigratedVersion: "1.0"))
        let connection = try DatabaseQueue(path: path)
        try connection.read { db in
            _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master")
            let before = try locksHeld(on: path + "-shm")
            try store.checkWritable()
            #expect(before > 0, "the reading connection holds no lock on the -shm file: the test shows nothing")
            #expect(try locksHeld(on: path + "-shm") == before, "the check dropped the connection's locks")
        }
    }
}
