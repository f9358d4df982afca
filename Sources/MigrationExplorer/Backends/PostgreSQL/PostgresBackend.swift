#if PostgreSQL
import Foundation
import MigrationCore
import MigrationManifest
import MigrationPostgres

/// `--postgres URL` (and `--schema NAME`): tables of its own in a schema of a PostgreSQL
/// database (`PostgresMigrationStore`), and one of its domains; in a build with the
/// `PostgreSQL` trait.
struct PostgresBackend: StoreBackend {
    let server: PostgresServer
    let schema: PostgresSchemaName
    let domainName: String

    /// The server's URL, without its password.
    var displayPath: String { server.description }
    var expected: String { "a PostgreSQL database" }
    var domain: String? { domainName }
    var runsManifestSQL: Bool { true }

    func with(domain: String?) -> PostgresBackend {
        PostgresBackend(server: server, schema: schema, domainName: domain ?? PostgresMigrationStore.defaultDomain)
    }

    /// Waits for another process's locks as `--wait SECONDS` or `--no-wait` says, telling
    /// `waiting` who holds them (the server tells when a wait starts, not when it ends).
    func open(waiting: StoreWaiting) -> any RealStore {
        var onWait: (@Sendable ([PostgresLockHolder]) -> Void)?
        if let tell = waiting.onChange {
            onWait = { holders in tell(.waiting(holder: holders.isEmpty ? nil : holders.map(\.description).joined(separator: "; "))) }
        }
        return PostgresMigrationStore(server: server, schema: schema, domain: domainName, lockPatience: waiting.patience, onWait: onWait)
    }

    /// Which records of a PostgreSQL database: "default", or "default, schema fleet" in a
    /// schema other than the default one.
    static func records(domain: String, schema: String) -> String {
        schema == PostgresSchemaName.default.name ? domain : "\(domain), schema \(schema)"
    }
}

extension StoreLocation {
    /// A PostgreSQL database (`PostgresMigrationStore`): tables of its own in schema
    /// `schema`, and domain `domain`; in a build with the `PostgreSQL` trait.
    ///
    /// ```swift
    /// let options = ExplorerOptions(store: .postgres(try PostgresServer(url: "postgres://app@db/notes")))
    /// ```
    public static func postgres(
        _ server: PostgresServer, schema: PostgresSchemaName = .default, domain: String = PostgresMigrationStore.defaultDomain
    ) -> StoreLocation {
        StoreLocation(PostgresBackend(server: server, schema: schema, domainName: domain))
    }
}
#endif
