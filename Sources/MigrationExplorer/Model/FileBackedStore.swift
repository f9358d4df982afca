import Foundation
import MigrationCore
#if PostgreSQL
import MigrationPostgres
#endif
import MigrationSQLite

/// A real store kept in one file: the explorer names it by its path, and a manifest's commands
/// inherit its lock (see `FileMigrationStore.lockDescriptor`).
///
/// ```swift
/// let store: any FileBackedStore = StoreLocation.defaultsPlist("com.example.notes.plist").open()
/// print(store.url.path, try store.load().lastMigratedVersion ?? "nothing recorded")
/// ```
public protocol FileBackedStore: MigrationStore {
    /// The path as given.
    var url: URL { get }
    /// The descriptor holding the store's `flock` while this process holds the store; `nil` otherwise.
    var lockDescriptor: Int32? { get }
    /// How people name it: the file's path, or a database server's URL.
    var displayPath: String { get }
    /// The environment variables of this process that hold the store's secret: a manifest's
    /// commands do not inherit them.
    var secretVariables: [String] { get }
}

extension FileBackedStore {
    /// The file's path.
    public var displayPath: String { url.path }
    /// A file has no secret.
    public var secretVariables: [String] { [] }
}

extension FileMigrationStore: FileBackedStore {}
extension PropertyListMigrationStore: FileBackedStore {}

/// A database's lock is SQLite's, held by this process's connection: there is no lock file
/// for a command to inherit, so a command still running when its runner is killed is not waited for.
extension SQLiteMigrationStore: FileBackedStore {
    public var url: URL { URL(fileURLWithPath: path) }
    public var lockDescriptor: Int32? { nil }
}

#if PostgreSQL
/// A PostgreSQL store is named by its server's URL (without the password). Its locks belong to
/// its connection, whose socket a command does not inherit: a command still running when its
/// runner is killed holds no lock and keeps no connection open. Nor does a command get
/// `PGPASSWORD` when that is the store's password.
extension PostgresMigrationStore: FileBackedStore {
    public var url: URL { URL(string: server.description) ?? URL(fileURLWithPath: server.description) }
    public var lockDescriptor: Int32? { nil }
    public var displayPath: String { server.description }
    public var secretVariables: [String] {
        let given = ProcessInfo.processInfo.environment["PGPASSWORD"]
        return given != nil && given == server.password ? ["PGPASSWORD"] : []
    }
}
#endif
