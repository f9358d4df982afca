#if PostgreSQL
import ArgumentParser
import Foundation
import MigrationPostgres

/// `--postgres`'s value, read once as it is parsed: the server the URL names, completed as
/// `psql` completes it from libpq's environment and password file, or why it names none.
///
/// ```swift
/// let url = PostgresURL(argument: "postgres://app@db.internal/notes")
/// let server = try url?.server.get()   // postgres://app@db.internal:5432/notes
/// ```
struct PostgresURL: ExpressibleByArgument, Sendable {
    /// The server, or the URL's fault.
    let server: Result<PostgresServer, PostgresURLError>
    /// What the password file's reading said (a file ignored for its mode), for standard error
    /// when the store is opened.
    let warnings: [String]

    /// Never `nil`: a URL that names no server is reported by ``StoreOptions``'s checks, as
    /// `--postgres: …`, rather than as a value the parser refused.
    init?(argument: String) {
        var warnings: [String] = []
        let environment = ProcessInfo.processInfo.environment
        server = Result { () throws(PostgresURLError) in
            try PostgresServer(url: argument, environment: environment, home: Self.home(in: environment), warn: { warnings.append($0) })
        }
        self.warnings = warnings
    }

    /// The home folder as libpq finds it, for `~/.pgpass` and `~/.postgresql/root.crt`: `HOME`
    /// when it is set, else the user's home in the password database.
    static func home(in environment: [String: String]) -> String {
        if let home = environment["HOME"], !home.isEmpty { return home }
        return NSHomeDirectory()
    }
}
#endif
