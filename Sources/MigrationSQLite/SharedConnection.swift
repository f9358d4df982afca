import Foundation
import GRDB
import MigrationCore

/// The one connection this process keeps to a database file, shared by every
/// ``SQLiteMigrationStore`` on it (whatever the path or domain used to reach it), so that a
/// block that calls another block on the same database reuses its transaction instead of
/// waiting for it. Threads take turns on it; processes take turns through SQLite's locks.
final class SharedConnection: Sendable {
    let path: String
    /// What keeps runs on the database apart from its resets and sets (SQLite's own locks last
    /// one transaction, one step; a run lasts many). Across processes on Linux, a `flock` on the
    /// database file itself: SQLite locks with `fcntl`, which `flock` neither takes nor waits
    /// for, so no file is added beside the database. Its descriptor stays open for the life of
    /// the process, like this connection: closing it would drop the process's `fcntl` locks on
    /// the file, SQLite's among them. On other systems (Apple's), where `flock` and `fcntl` locks
    /// on one file exclude each other, the `flock` is on `<database>.run.lock`.
    let runLock: RunLock
    /// What keeps a block's runs apart across processes for as long as a shell command of the
    /// block lives, even when its runner was killed (SQLite's write lock ends with the runner).
    let blockLock: BlockRangeLock
    private let state = Locked(State())

    private struct State {
        var queue: DatabaseQueue?
        /// Whether the record tables were checked and the database put in WAL mode.
        var preparedForWrites = false
        var runningBlocks: Set<String> = []
    }

    private init(path: String, realPath: String) {
        self.path = path
        self.blockLock = BlockRangeLock(path: realPath)
        #if os(Linux)
        // Created, when a run or reset comes first, as SQLite creates a database: 0644 less the umask.
        self.runLock = RunLock(path: realPath, creationMode: 0o644)
        #else
        self.runLock = RunLock(path: realPath + ".run.lock")
        #endif
    }

    /// The connection for the file at `path`: the same object for every path to one file.
    static func to(_ path: String) -> SharedConnection {
        let key = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return table.withLock { table in
            if let existing = table[key] { return existing }
            let created = SharedConnection(path: path, realPath: key)
            table[key] = created
            return created
        }
    }

    private static let table = Locked<[String: SharedConnection]>([:])

    /// The open connection; opened by the first call. Opening reads and writes nothing. Each
    /// store sets SQLite's busy timeout for its own transactions (its lock patience).
    func queue() throws(OpenError) -> DatabaseQueue {
        do {
            return try state.withLock { state in
                if let queue = state.queue { return queue }
                var configuration = Configuration()
                configuration.label = "SQLiteMigrationStore"
                let queue = try DatabaseQueue(path: path, configuration: configuration)
                state.queue = queue
                return queue
            }
        } catch {
            throw OpenError(underlying: error)
        }
    }

    /// The database could not be opened.
    struct OpenError: Error {
        let underlying: any Error
    }

    /// Before the first write: refuses tables of our names that are not ours, then puts the
    /// database in WAL mode (which no transaction may be open for).
    func prepareForWrites(_ db: Database) throws {
        guard !state.withLock({ $0.preparedForWrites }) else { return }
        _ = try RecordTables.exist(in: db)
        if try String.fetchOne(db, sql: "PRAGMA journal_mode") != "wal" {
            try db.execute(sql: "PRAGMA journal_mode = WAL")
        }
        state.withLock { $0.preparedForWrites = true }
    }

    /// Marks `block` as running on this connection while `body` runs; `body` learns whether it
    /// already was (a block that calls itself).
    func running<T>(_ block: String, _ body: (_ alreadyRunning: Bool) throws -> T) rethrows -> T {
        let alreadyRunning = state.withLock { !$0.runningBlocks.insert(block).inserted }
        defer { if !alreadyRunning { state.withLock { _ = $0.runningBlocks.remove(block) } } }
        return try body(alreadyRunning)
    }
}
