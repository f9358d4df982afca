import ArgumentParser
import MigrationCore
#if PostgreSQL
import MigrationPostgres
#endif

/// `--postgres URL` and `--schema NAME`: a PostgreSQL database shared by a fleet as the real
/// store, where a manifest's `"sql"` runs. A build without the `PostgreSQL` trait refuses it,
/// saying how to build it in.
struct PostgresOptions: StoreBackendOptions {
    static let option = "--postgres"
    static let isDatabase = true

    #if PostgreSQL
    @Option(name: .long, help: Self.urlHelp) var postgres: PostgresURL?
    /// ` (default: migration_explorer)`, for `--schema`'s help.
    private static let defaultSchema = " (default: \(PostgresSchemaName.default))"
    /// Help lists the options only where they are built in; elsewhere they are refused, saying how to build them in.
    private static let visibility = ArgumentVisibility.default
    #else
    @Option(name: .long, help: Self.urlHelp) var postgres: String?
    private static let defaultSchema = ""
    private static let visibility = ArgumentVisibility.hidden
    #endif

    @Option(name: .long, help: ArgumentHelp("With --postgres: the schema of the records' tables\(Self.defaultSchema), created by the first write; a lowercase name PostgreSQL takes unquoted, never public.", valueName: "name", visibility: Self.visibility))
    var schema: String?

    private static let urlHelp = ArgumentHelp("A PostgreSQL database shared by a fleet (postgres://user@host:port/database), to keep the records in, in a schema of their own, and to run manifests' \"sql\" in. As psql: what the URL leaves out comes from PGHOST, PGPORT, PGUSER, PGDATABASE, PGPASSWORD, PGSSLMODE, then the password from ~/.pgpass or PGPASSFILE (mode 0600 only), so \"postgres://\" alone will do. sslmode=prefer unless given: TLS when the server offers it, its certificate not checked, plain text otherwise; verify-full checks the certificate and host name (the system's trust roots, or sslrootcert=FILE).", valueName: "url", visibility: visibility)

    var isGiven: Bool { postgres != nil }

    func check() throws {
        if schema != nil, postgres == nil { throw ValidationError("--schema names the PostgreSQL schema of the records; it needs --postgres URL") }
        #if PostgreSQL
        guard let postgres else { return }
        _ = try Self.server(postgres)
        _ = try schemaName()
        #else
        if postgres != nil { throw ValidationError.builtWithout("PostgreSQL", option: Self.option) }
        #endif
    }

    #if PostgreSQL
    /// The server's URL, without its password.
    var givenPath: String? { try? postgres?.server.get().description }

    /// The database `--postgres` names, checked to answer; the password file's warnings go to
    /// standard error.
    /// - Throws: ``CommandFailure``: exit 64 for a URL or schema that names none, 69 for a
    ///   server that cannot be reached, 65 for a refused login or a missing database.
    func location(domain: String?) throws(CommandFailure) -> StoreLocation? {
        guard let postgres else { return nil }
        for warning in postgres.warnings { Program.report(warning.drawable) }
        let server: PostgresServer
        let schema: PostgresSchemaName
        do { (server, schema) = (try Self.server(postgres), try schemaName()) } catch { throw CommandFailure(.usage, error.message) }
        let location = StoreLocation.postgres(server, schema: schema).with(domain: domain)
        try PostgresReachability.check(server)
        return location
    }

    /// The server `--postgres` names.
    private static func server(_ url: PostgresURL) throws(ValidationError) -> PostgresServer {
        do { return try url.server.get() } catch { throw ValidationError("--postgres: \(error.description.drawable)") }
    }

    /// The schema `--schema` names; the default one without it.
    private func schemaName() throws(ValidationError) -> PostgresSchemaName {
        guard let schema else { return .default }
        if schema.isEmpty { throw ValidationError("--schema: the name is empty; give a name, or leave --schema out for \(PostgresSchemaName.default)") }
        do { return try PostgresSchemaName(schema) } catch { throw ValidationError("--schema: \(error)") }
    }
    #else
    var givenPath: String? { nil }

    func location(domain: String?) throws(CommandFailure) -> StoreLocation? {
        guard postgres != nil else { return nil }
        throw CommandFailure(.usage, ValidationError.builtWithout("PostgreSQL", option: Self.option).message)
    }
    #endif
}
