import Foundation

/// What a `postgres://` URL itself says, each part `nil` when the URL leaves it out: the
/// environment and libpq's defaults fill the rest (see ``PostgresServer``).
struct PostgresURLParts {
    var host: String?
    var port: Int?
    var user: String?
    var password: String?
    var database: String?
    var sslMode: PostgresServer.SSLMode?
    var sslRootCertificate: String?

    /// The parameters a URL may carry.
    static let parameters = ["sslmode", "sslrootcert", "user", "password"]

    /// Reads `url`. - Throws: ``PostgresURLError`` naming the URL without its password.
    init(_ url: String) throws(PostgresURLError) {
        // Anything else is not shown at all: a value that is not such a URL (a slash missing, a
        // psql connection string) cannot be told apart from its password.
        guard url.hasPrefix("postgres://") || url.hasPrefix("postgresql://"), let parts = URLComponents(string: url),
              let scheme = parts.scheme, ["postgres", "postgresql"].contains(scheme) else {
            throw PostgresURLError(notShown: "it is not a postgres://user@host:port/database URL (percent-encode a / @ : ? or # in a password: %2F %40 %3A %3F %23)")
        }
        if let host = parts.percentEncodedHost.flatMap({ $0.removingPercentEncoding }), !host.isEmpty {
            self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        }
        if let port = parts.port, !(1...65535).contains(port) {
            throw PostgresURLError(url: url, problem: "port \(port) is not a TCP port (1 to 65535)")
        }
        port = parts.port
        user = parts.percentEncodedUser.flatMap { $0.removingPercentEncoding }.flatMap { $0.isEmpty ? nil : $0 }
        password = parts.percentEncodedPassword.flatMap { $0.removingPercentEncoding }
        database = String(parts.percentEncodedPath.drop(while: { $0 == "/" })).removingPercentEncoding.flatMap { $0.isEmpty ? nil : $0 }
        for item in parts.queryItems ?? [] {
            let value = item.value ?? ""
            switch item.name {
            case "sslmode":
                guard let mode = PostgresServer.SSLMode(rawValue: value) else {
                    throw PostgresURLError(url: url, problem: "sslmode=\(value) is none of \(PostgresServer.SSLMode.names)")
                }
                sslMode = mode
            case "sslrootcert":
                guard !value.isEmpty else { throw PostgresURLError(url: url, problem: "sslrootcert is empty; name a file of certificates, or system") }
                sslRootCertificate = value
            case "password": password = value
            case "user": user = value.isEmpty ? user : value
            default:
                throw PostgresURLError(url: url, problem: "the parameter \(item.name) is not one this store reads (\(Self.parameters.joined(separator: ", ")))")
            }
        }
    }
}
