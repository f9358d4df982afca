#if SQLite
import Foundation
import MigrationCore
import MigrationManifest
import MigrationSQLite

/// `--sqlite FILE`: tables of its own in an app's SQLite database (`SQLiteMigrationStore`),
/// and one of its domains; in a build with the `SQLite` trait.
struct SQLiteBackend: StoreBackend {
    let path: String
    let domainName: String

    var displayPath: String { path }
    var expected: String { "a SQLite database (created empty when missing)" }
    var domain: String? { domainName }
    var runsManifestSQL: Bool { true }

    func with(domain: String?) -> SQLiteBackend {
        SQLiteBackend(path: path, domainName: domain ?? SQLiteMigrationStore.defaultDomain)
    }

    /// Waits for another process's locks as `--wait SECONDS` or `--no-wait` says.
    func open(waiting: StoreWaiting) -> any RealStore { SQLiteMigrationStore(path: path, domain: domainName, waiting: waiting.lockPolicy) }
}

extension StoreLocation {
    /// An app's SQLite database (`SQLiteMigrationStore`), domain `domain`; in a build with
    /// the `SQLite` trait (on by default).
    ///
    /// ```swift
    /// let options = ExplorerOptions(store: .sqlite("notes.sqlite", domain: "app"))
    /// ```
    public static func sqlite(_ path: String, domain: String = SQLiteMigrationStore.defaultDomain) -> StoreLocation {
        StoreLocation(SQLiteBackend(path: path, domainName: domain))
    }
}

/// A command inherits the lock of the block it runs in (a lock on the database file itself,
/// which SQLite's locks leave alone), so a command still running when its runner is killed is
/// waited for by the next run. A manifest's `"sql"` runs in the transaction that records its
/// migration.
extension SQLiteMigrationStore: RealStore {
    public var lockDescriptor: Int32? { heldBlockDescriptor }
    public var displayPath: String { URL(fileURLWithPath: path).path }
    public var name: String { URL(fileURLWithPath: path).lastPathComponent }
    /// "SQLite notes.sqlite (default)".
    public var label: StoreLabel { StoreLabel(before: "SQLite ", path: displayPath, after: " (\(domain))") }
    public var manifestSQL: ManifestSQL.Runner? { ManifestSQL.inSQLiteStore }
    public func recordedDomains() throws -> [String?] { try domains() }
    /// Another connection's commits, heard through the database's files and confirmed by
    /// `PRAGMA data_version` (``SQLiteChanges``).
    public func changes() throws -> AsyncStream<StoreChange> {
        .relaying(try SQLiteChanges(database: URL(fileURLWithPath: path)).changes()) { _ in .changed(writer: nil) }
    }
}
#endif
