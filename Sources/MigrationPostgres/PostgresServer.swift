import Foundation
import PostgresNIO

/// Where a PostgreSQL database is and how to log in, read from a libpq-style URL:
/// `postgres://user:password@host:port/database?sslmode=prefer`.
///
/// ```swift
/// let server = try PostgresServer(url: "postgres://deploy@db.internal/notes", password: secret)
/// print(server)   // postgres://deploy@db.internal:5432/notes
/// ```
/// As with libpq, the port defaults to 5432, the user to the login name of this process, the
/// database to the user's name, and `sslmode` to `prefer`: TLS when the server offers it, a
/// plain connection otherwise. `disable`, `allow`, `prefer`, `require`, `verify-ca` and
/// `verify-full` are read as libpq reads them.
public struct PostgresServer: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var user: String
    /// Not printed anywhere.
    public var password: String?
    public var database: String
    public var sslMode: SSLMode

    /// libpq's `sslmode`.
    public enum SSLMode: String, Sendable, CaseIterable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    /// Reads `url`; `password` is used when the URL has none (the explorer passes `PGPASSWORD`).
    /// - Throws: ``PostgresURLError`` saying what is wrong with the URL.
    public init(url: String, password: String? = nil) throws(PostgresURLError) {
        guard let parts = URLComponents(string: url), let scheme = parts.scheme, ["postgres", "postgresql"].contains(scheme) else {
            throw PostgresURLError(url: url, problem: "it is not a postgres://user@host:port/database URL")
        }
        guard let host = parts.percentEncodedHost.flatMap({ $0.removingPercentEncoding }), !host.isEmpty else {
            throw PostgresURLError(url: url, problem: "it names no host (postgres://user@HOST/database)")
        }
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if let port = parts.port, !(1...65535).contains(port) {
            throw PostgresURLError(url: url, problem: "port \(port) is not a TCP port (1 to 65535)")
        }
        self.port = parts.port ?? 5432
        self.user = parts.percentEncodedUser.flatMap { $0.removingPercentEncoding }.flatMap { $0.isEmpty ? nil : $0 } ?? Self.loginName
        self.password = parts.percentEncodedPassword.flatMap { $0.removingPercentEncoding } ?? password
        let path = String(parts.percentEncodedPath.drop(while: { $0 == "/" }))
        self.database = path.removingPercentEncoding.flatMap { $0.isEmpty ? nil : $0 } ?? user
        self.sslMode = .prefer
        for item in parts.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let mode = item.value.flatMap(SSLMode.init(rawValue:)) else {
                    throw PostgresURLError(url: url, problem: "sslmode=\(item.value ?? "") is none of \(SSLMode.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                sslMode = mode
            case "password": self.password = item.value
            case "user": self.user = item.value ?? user
            default:
                throw PostgresURLError(url: url, problem: "the parameter \(item.name) is not one this store reads (sslmode, user, password)")
            }
        }
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
        case .verifyCA:
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.certificateVerification = .noHostnameVerification
            tls = .require(try NIOSSLContext(configuration: configuration))
        case .verifyFull: tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
        }
        var configuration = PostgresConnection.Configuration(
            establishedChannel: channel, tls: tls, username: user, password: password, database: database)
        configuration.options.additionalStartupParameters = [("application_name", applicationName)]
        configuration.options.tlsServerName = host
        return configuration
    }

    /// libpq's `require` and `prefer`: encrypted, the certificate not checked.
    private static var unverified: TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .none
        return configuration
    }
}

/// A `--postgres` URL that cannot be read.
public struct PostgresURLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL as given, its password hidden.
    public let url: String
    public let problem: String

    init(url: String, problem: String) {
        self.url = url.replacingOccurrences(of: #"(//[^:/@]*):[^@/]*@"#, with: "$1:…@", options: .regularExpression)
        self.problem = problem
    }

    public var description: String { "\(url): \(problem)" }
}
