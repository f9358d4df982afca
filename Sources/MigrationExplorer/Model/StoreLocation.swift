import Foundation
import MigrationCore
#if PostgreSQL
import MigrationPostgres
#endif
import MigrationSQLite

/// A real store the explorer plays against, as a front end names it: a JSON state file
/// (`--store`), an app's preferences plist (`--defaults-plist`, `--simulator`), an app's
/// SQLite database (`--sqlite`) or a PostgreSQL database (`--postgres`).
///
/// ```swift
/// let options = ExplorerOptions(store: .defaultsPlist("Library/Preferences/com.example.notes.plist"))
/// ```
public enum StoreLocation: Sendable, Equatable {
    /// A `FileMigrationStore`: a JSON file and one of its domains.
    case jsonFile(String, domain: String = FileMigrationStore.defaultDomain)
    /// A `PropertyListMigrationStore`: MTMigration's keys, or a domain's.
    case defaultsPlist(String, domain: String? = nil)
    /// A `SQLiteMigrationStore`: tables of its own in an app's database, and one of its domains.
    case sqlite(String, domain: String = SQLiteMigrationStore.defaultDomain)
    #if PostgreSQL
    /// A `PostgresMigrationStore`: tables of its own in a schema of a PostgreSQL database, and
    /// one of its domains; in a build with the `PostgreSQL` trait.
    case postgres(PostgresServer, schema: PostgresSchemaName = .default, domain: String = PostgresMigrationStore.defaultDomain)
    #endif

    /// How every command names a preferences plist's records without a domain: MTMigration's own
    /// keys (`MTMigration.lastMigrationVersion`, …), which no `--domain` names.
    static let mtMigrationKeys = "MTMigration's keys"

    /// The file's path, as given; a server's URL, without its password.
    public var path: String {
        switch self {
        case .jsonFile(let path, _), .defaultsPlist(let path, _), .sqlite(let path, _): path
        #if PostgreSQL
        case .postgres(let server, _, _): server.description
        #endif
        }
    }

    /// What the file must be, for errors: "a JSON file (created by the first run)".
    var expected: String {
        switch self {
        case .jsonFile: "a JSON file (created by the first run)"
        case .defaultsPlist: "a preferences plist (created by the first write)"
        case .sqlite: "a SQLite database (created empty when missing)"
        #if PostgreSQL
        case .postgres: "a PostgreSQL database"
        #endif
        }
    }

    #if PostgreSQL
    /// Which records of a PostgreSQL database: "default", or "default, schema fleet" in a
    /// schema other than the default one.
    static func records(domain: String, schema: String) -> String {
        schema == PostgresSchemaName.default.name ? domain : "\(domain), schema \(schema)"
    }
    #endif

    /// The same file, domain `domain` (`nil`: a state file's default, a plist's MTMigration keys).
    public func with(domain: String?) -> StoreLocation {
        switch self {
        case .jsonFile(let path, _): .jsonFile(path, domain: domain ?? FileMigrationStore.defaultDomain)
        case .defaultsPlist(let path, _): .defaultsPlist(path, domain: domain)
        case .sqlite(let path, _): .sqlite(path, domain: domain ?? SQLiteMigrationStore.defaultDomain)
        #if PostgreSQL
        case .postgres(let server, let schema, _): .postgres(server, schema: schema, domain: domain ?? PostgresMigrationStore.defaultDomain)
        #endif
        }
    }

    /// The store on the file. A database's waits for another process's locks are bounded as
    /// the command's `--wait SECONDS` or `--no-wait` says, as a file's are.
    public func open() -> any FileBackedStore {
        switch self {
        case .jsonFile(let path, let domain): FileMigrationStore(url: URL(fileURLWithPath: path), domain: domain)
        case .defaultsPlist(let path, let domain): PropertyListMigrationStore(url: URL(fileURLWithPath: path), domain: domain)
        case .sqlite(let path, let domain): SQLiteMigrationStore(path: path, domain: domain)
        #if PostgreSQL
        case .postgres(let server, let schema, let domain):
            PostgresMigrationStore(server: server, schema: schema, domain: domain, lockWait: LockWaiting.policy.value.patience, onWait: { holders in
                let who = holders.isEmpty ? "another process" : holders.map(\.description).joined(separator: "; ")
                CommandSettings.current.onStoreWait("waiting for \(server) (\(Self.records(domain: domain, schema: schema.name))), held by \(who)…")
            })
        #endif
        }
    }
}
