import Foundation
import PostgresNIO

/// Where a PostgreSQL database is and how to log in, read from a libpq-style URL:
/// `postgres://user:password@host:port/database?sslmode=prefer`.
///
/// ```swift
/// let server = try PostgresServer(url: "postgres://deploy@db.internal/notes", password: secret)
/// print(server)   // postgres://deploy@db.internal:5432/notes
///
/// // As psql: PGHOST, PGPORT, PGUSER, PGDATABASE, PGPASSWORD, PGSSLMODE, then ~/.pgpass.
/// let fromEnvironment = try PostgresServer(url: "postgres://", environment: ProcessInfo.processInfo.environment,
///                                          home: NSHomeDirectory(), warn: { print($0) })
/// ```
/// As with libpq, the port defaults to 5432, the host to `localhost` (this store speaks TCP
/// only), the user to the login name of this process, the database to the user's name, and
/// `sslmode` to `prefer`: TLS when the server offers it, its certificate not checked, and a plain
/// connection otherwise. `require` insists on TLS without checking the certificate; `verify-ca`
/// checks it against ``sslRootCertificate`` (or the system's trust roots), `verify-full` checks
/// the host name as well. `disable` never uses TLS, and `allow` is read as `prefer`.
public struct PostgresServer: Sendable, Equatable, CustomStringConvertible {
    /// The host name or address, reached over TCP: `localhost` unless the URL or `PGHOST` says otherwise.
    public var host: String
    /// The port: 5432 unless the URL or `PGPORT` says otherwise.
    public var port: Int
    /// The role to log in as.
    public var user: String
    /// Not printed anywhere.
    public var password: String?
    /// The database whose schema holds the records.
    public var database: String
    /// Whether and how TLS is used: the URL's `sslmode`, `PGSSLMODE`, or `prefer`.
    public var sslMode: SSLMode
    /// The file of certificates `verify-ca` and `verify-full` trust: the URL's `sslrootcert`,
    /// `PGSSLROOTCERT`, or `~/.postgresql/root.crt` when it exists; `nil` or `system`: the
    /// system's trust roots.
    public var sslRootCertificate: String?

    /// libpq's `sslmode`.
    ///
    /// ```swift
    /// try PostgresServer(url: "postgres://deploy@db.internal/notes?sslmode=verify-full").sslMode   // .verifyFull
    /// ```
    public enum SSLMode: String, Sendable, CaseIterable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"

        static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
    }

    /// Reads `url`; `password` is used when the URL has none. No environment variable and no
    /// password file is read.
    ///
    /// ```swift
    /// let server = try PostgresServer(url: "postgres://deploy@db.internal/notes", password: secret)
    /// ```
    /// - Throws: ``PostgresURLError`` saying what is wrong with the URL.
    public init(url: String, password: String? = nil) throws(PostgresURLError) {
        try self.init(url: url, environment: password.map { ["PGPASSWORD": $0] } ?? [:], home: nil)
    }

    /// Reads `url` as `psql` would: what the URL leaves out comes from libpq's variables in
    /// `environment` (`PGHOST`, `PGPORT`, `PGUSER`, `PGDATABASE`, `PGPASSWORD`, `PGSSLMODE`,
    /// `PGSSLROOTCERT`), then the password from the password file (`PGPASSFILE`, or `.pgpass` in
    /// `home`; see ``PostgresPasswordFile``), then the defaults. `warn` hears of a password file
    /// that is ignored because others may read it.
    ///
    /// ```swift
    /// let server = try PostgresServer(url: "postgres:///notes", environment: ProcessInfo.processInfo.environment,
    ///                                 home: NSHomeDirectory()) { warning in print(warning) }
    /// ```
    /// - Throws: ``PostgresURLError`` for a URL or a variable that cannot be read.
    public init(url: String, environment: [String: String], home: String?, warn: (String) -> Void = { _ in }) throws(PostgresURLError) {
        let given = try PostgresURLParts(url)
        let variables = environment.filter { !$0.value.isEmpty }
        func refuse(_ name: String, _ problem: String) -> PostgresURLError {
            PostgresURLError(url: url, problem: "\(name)=\(variables[name] ?? "") \(problem)")
        }
        host = given.host ?? variables["PGHOST"] ?? "localhost"
        if given.host == nil, host.hasPrefix("/") { throw refuse("PGHOST", "is a socket folder; this store connects over TCP: give a host name") }
        if let port = given.port {
            self.port = port
        } else if let text = variables["PGPORT"] {
            guard let port = Int(text), (1...65535).contains(port) else { throw refuse("PGPORT", "is not a TCP port (1 to 65535)") }
            self.port = port
        } else {
            port = 5432
        }
        user = given.user ?? variables["PGUSER"] ?? Self.loginName
        database = given.database ?? variables["PGDATABASE"] ?? user
        if let mode = given.sslMode {
            sslMode = mode
        } else if let text = variables["PGSSLMODE"] {
            guard let mode = SSLMode(rawValue: text) else { throw refuse("PGSSLMODE", "is none of \(SSLMode.names)") }
            sslMode = mode
        } else {
            sslMode = .prefer
        }
        let defaultRoots = home.map { ($0 as NSString).appendingPathComponent(".postgresql/root.crt") }.flatMap { FileManager.default.fileExists(atPath: $0) ? $0 : nil }
        sslRootCertificate = given.sslRootCertificate ?? variables["PGSSLROOTCERT"] ?? defaultRoots
        let (host, port, database, user) = (host, port, database, user)
        password = given.password ?? variables["PGPASSWORD"] ?? PostgresPasswordFile.path(environment: variables, home: home)
            .flatMap { PostgresPasswordFile.text(at: $0, warn: warn) }
            .flatMap { PostgresPasswordFile.password(in: $0, host: host, port: port, database: database, user: user) }
    }

    /// `postgres://user@host:port/database`, without the password.
    public var description: String {
        let host = host.contains(":") ? "[\(host)]" : host
        return "postgres://\(user)@\(host):\(port)/\(database)"
    }

    /// host, port and database, as fault messages name them: `db.internal:5432, database notes`.
    var placeForPeople: String { "\(host):\(port), database \(database)" }

    /// The name of the user this process runs as, libpq's default user.
    private static var loginName: String {
        guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else { return "postgres" }
        return String(cString: name)
    }

    /// The driver's configuration over `channel`, a connection to the server, the session
    /// named `applicationName` in `pg_stat_activity`.
    func configuration(establishedChannel channel: any Channel, applicationName: String) throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS
        switch sslMode {
        case .disable: tls = .disable
        case .allow, .prefer: tls = .prefer(try NIOSSLContext(configuration: Self.unverified))
        case .require: tls = .require(try NIOSSLContext(configuration: Self.unverified))
        case .verifyCA: tls = .require(try NIOSSLContext(configuration: try verifying(hostName: false)))
        case .verifyFull: tls = .require(try NIOSSLContext(configuration: try verifying(hostName: true)))
        }
        var configuration = PostgresConnection.Configuration(
            establishedChannel: channel, tls: tls, username: user, password: password, database: database)
        configuration.options.additionalStartupParameters = [("application_name", applicationName)]
        configuration.options.tlsServerName = host
        return configuration
    }

    /// libpq's `verify-ca` (`hostName` false) and `verify-full`: the server's certificate chain
    /// checked against ``sslRootCertificate`` or the system's trust roots, and for `verify-full`
    /// its name against ``host``.
    /// - Throws: ``PostgresConnectionError`` when the file of certificates does not exist.
    private func verifying(hostName: Bool) throws -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = hostName ? .fullVerification : .noHostnameVerification
        if let roots = sslRootCertificate, roots != "system" {
            guard FileManager.default.isReadableFile(atPath: roots) else {
                throw PostgresConnectionError(server: self, kind: .other, reason: "sslmode=\(sslMode.rawValue) needs the certificates to trust, and \(roots) cannot be read; give sslrootcert=FILE (or PGSSLROOTCERT), or sslrootcert=system for the system's trust roots")
            }
            configuration.trustRoots = .file(roots)
        }
        return configuration
    }

    /// libpq's `require` and `prefer`: encrypted, the certificate not checked.
    private static var unverified: TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .none
        return configuration
    }
}

/// A `--postgres` URL, or one of libpq's environment variables, that cannot be read.
public struct PostgresURLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL as given, its password hidden.
    public let url: String
    /// What is wrong with it, and what to write instead.
    public let problem: String

    init(url: String, problem: String) {
        self.url = PostgresServer.redacted(url)
        self.problem = problem
    }

    /// A value that is not a URL, and so is not shown: it may be a password, or hold one.
    init(notShown problem: String) {
        url = "the value given (not shown: it may hold a password)"
        self.problem = problem
    }

    public var description: String { "\(url): \(problem)" }
}
