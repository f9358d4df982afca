import Foundation
import MigrationCore
import MigrationSQLite

/// A real store kept in one file: the explorer names it by its path, and a manifest's commands
/// inherit its lock (see ``FileMigrationStore/lockDescriptor``).
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
}

extension FileMigrationStore: FileBackedStore {}
extension PropertyListMigrationStore: FileBackedStore {}

/// A database's lock is SQLite's, held by this process's connection: there is no lock file
/// for a command to inherit, so a command still running when its runner is killed is not waited for.
extension SQLiteMigrationStore: FileBackedStore {
    public var url: URL { URL(fileURLWithPath: path) }
    public var lockDescriptor: Int32? { nil }
}
