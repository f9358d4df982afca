import ArgumentParser
import Foundation
import MigrationCore
#if PostgreSQL
import MigrationPostgres
#endif
import MigrationSQLite

/// Which real store a command works on: a JSON state file, an app's preferences plist, the
/// preferences plist of an app in a simulator, or an app's SQLite database. At most one.
struct StoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("A JSON state file of migration records, the real store (plan, run and the UI work on a sandbox without a store option).", valueName: "file"))
    var store: String?

    @Option(name: .customLong("defaults-plist"), help: ArgumentHelp("An app's preferences plist (binary or XML), the real store, under MTMigration's keys.", valueName: "file"))
    var defaultsPlist: String?

    @Option(name: .long, help: ArgumentHelp("An app's SQLite database to keep the records in, in tables of their own, and to run manifests' \"sql\" in.", valueName: "file"))
    var sqlite: String?

    @Option(name: .long, help: ArgumentHelp("A PostgreSQL database shared by a fleet (postgres://user@host:port/database), to keep the records in, in a schema of their own, and to run manifests' \"sql\" in. As psql: what the URL leaves out comes from PGHOST, PGPORT, PGUSER, PGDATABASE, PGPASSWORD, PGSSLMODE, then the password from ~/.pgpass or PGPASSFILE (mode 0600 only), so \"postgres://\" alone will do. sslmode=prefer unless given: TLS when the server offers it, its certificate not checked, plain text otherwise; verify-full checks the certificate and host name (the system's trust roots, or sslrootcert=FILE).", valueName: "url"))
    var postgres: String?

    @Option(name: .long, help: ArgumentHelp("With --postgres: the schema of the records' tables\(Self.defaultSchema), created by the first write; a lowercase name PostgreSQL takes unquoted, never public.", valueName: "name"))
    var schema: String?

    @Option(name: .long, help: ArgumentHelp("The preferences plist of this app in a simulator (macOS, Xcode's xcrun); quit the app first.", valueName: "bundle-id"))
    var simulator: String?

    @Option(name: .long, help: ArgumentHelp("With --simulator: the simulator's UDID (default: the booted one).", valueName: "udid"))
    var device: String?

    @Option(name: .long, help: ArgumentHelp("The domain of the store (default: a JSON file's \"default\", in a plist, MTMigration's keys); one store can hold several.", valueName: "name"))
    var domain: String?

    func validate() throws {
        let named = [("--store", store), ("--defaults-plist", defaultsPlist), ("--sqlite", sqlite), ("--postgres", postgres), ("--simulator", simulator)].filter { $0.1 != nil }.map(\.0)
        if named.count > 1 {
            throw ValidationError("\(named.joined(separator: " and ")) each name a store; give one of them")
        }
        for (option, path) in [("--store", store), ("--defaults-plist", defaultsPlist), ("--sqlite", sqlite)] where path?.isEmpty == true {
            throw ValidationError("\(option): the path is empty; name a file")
        }
        if schema != nil, postgres == nil { throw ValidationError("--schema names the PostgreSQL schema of the records; it needs --postgres URL") }
        if postgres != nil { try checkPostgres() }
        if domain?.isEmpty == true { throw ValidationError("--domain: the name is empty; give a name, or leave --domain out for the default") }
        if domain != nil, !namesStore {
            throw ValidationError("--domain names the records of a store; give the store too (--store, --defaults-plist, --sqlite, --postgres or --simulator)")
        }
        if device != nil, simulator == nil { throw ValidationError("--device needs --simulator BUNDLE_ID") }
        if let simulator, simulator.isEmpty || simulator.contains("/") || simulator.hasPrefix(".") {
            throw ValidationError("--simulator: \"\(simulator)\" is not a bundle identifier (such as com.example.notes)")
        }
    }

    /// Whether a store is named.
    var namesStore: Bool { store != nil || defaultsPlist != nil || sqlite != nil || postgres != nil || simulator != nil }

    /// The named path, before `--simulator` is resolved: for error reports.
    var path: String? { store ?? defaultsPlist ?? sqlite ?? postgresDescription }

    /// What a build without the `PostgreSQL` trait says to `--postgres`.
    static let withoutPostgres = "--postgres: this \(Program.name) was built without PostgreSQL; build it with the PostgreSQL trait "
        + "(`swift build --traits PostgreSQL`, or traits: [\"PostgreSQL\"] on the package's dependency line)"

    #if PostgreSQL
    /// ` (default: migration_explorer)`, for `--schema`'s help.
    private static let defaultSchema = " (default: \(PostgresSchemaName.default))"

    /// The server's URL, without its password, when `--postgres` names one.
    private var postgresDescription: String? { (try? postgresServer())?.description }

    /// Checks `--postgres` and `--schema` before anything connects.
    private func checkPostgres() throws(ValidationError) {
        _ = try postgresServer()
        _ = try postgresSchema()
    }

    /// The server `--postgres` names, completed as `psql` completes it from libpq's environment
    /// and password file; `nil` without it. `warn` hears of a password file that is ignored.
    private func postgresServer(warn: (String) -> Void = { _ in }) throws(ValidationError) -> PostgresServer? {
        guard let postgres else { return nil }
        do { return try PostgresServer(url: postgres, environment: ProcessInfo.processInfo.environment, home: NSHomeDirectory(), warn: warn) } catch {
            throw ValidationError("--postgres: \(error.description.drawable)")
        }
    }

    /// The schema `--schema` names; the default one without it.
    private func postgresSchema() throws(ValidationError) -> PostgresSchemaName {
        guard let schema else { return .default }
        if schema.isEmpty { throw ValidationError("--schema: the name is empty; give a name, or leave --schema out for \(PostgresSchemaName.default)") }
        do { return try PostgresSchemaName(schema) } catch { throw ValidationError("--schema: \(error)") }
    }
    #else
    private static let defaultSchema = ""
    private var postgresDescription: String? { nil }

    /// `--postgres` in a build without PostgreSQL: refused, saying how to build it in.
    private func checkPostgres() throws(ValidationError) {
        throw ValidationError(Self.withoutPostgres)
    }
    #endif

    /// The store the options name, its path checked; `nil` when none is named. `--simulator`
    /// asks `xcrun` for the app's container and warns, on stderr, that the app must be quit.
    /// - Throws: ``CommandFailure`` for a path that cannot hold a store, or a simulator
    ///   container that cannot be found.
    func location() throws(CommandFailure) -> StoreLocation? {
        let location: StoreLocation
        let option: String
        if let store {
            (location, option) = (.jsonFile(store, domain: domain ?? FileMigrationStore.defaultDomain), "--store")
        } else if let defaultsPlist {
            (location, option) = (.defaultsPlist(defaultsPlist, domain: domain), "--defaults-plist")
        } else if let sqlite {
            (location, option) = (.sqlite(sqlite, domain: domain ?? SQLiteMigrationStore.defaultDomain), "--sqlite")
        } else if postgres != nil {
            return try postgresLocation()
        } else if let simulator {
            let plist = try SimulatorContainer.preferences(of: simulator, device: device ?? "booted")
            Program.report(SimulatorContainer.quitWarning(simulator))
            (location, option) = (.defaultsPlist(plist, domain: domain), "--simulator")
        } else {
            return nil
        }
        try StorePath.check(location, option: option)
        return location
    }
}

extension StoreOptions {
    /// The PostgreSQL database `--postgres` names, checked to answer.
    /// - Throws: ``CommandFailure`` when it cannot be reached, or in a build without PostgreSQL.
    private func postgresLocation() throws(CommandFailure) -> StoreLocation {
        #if PostgreSQL
        guard let server = try? postgresServer(warn: { Program.report($0.drawable) }) else {
            throw CommandFailure(.usage, "--postgres: not a PostgreSQL URL")
        }
        let schema: PostgresSchemaName
        do { schema = try postgresSchema() } catch { throw CommandFailure(.usage, error.message) }
        let location = StoreLocation.postgres(server, schema: schema, domain: domain ?? PostgresMigrationStore.defaultDomain)
        try PostgresReachability.check(server)
        return location
        #else
        throw CommandFailure(.usage, Self.withoutPostgres)
        #endif
    }
}
