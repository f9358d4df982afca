import Foundation
import PostgresNIO

/// The store could not reach its PostgreSQL server, the server refused the login, or the
/// connection was lost. Its message names the host, the port and the database.
///
/// ```swift
/// do { try store.connect() } catch let error as PostgresConnectionError where error.kind == .unreachable {
///     print(error)   // cannot connect to PostgreSQL at db.internal:5432, database notes: connection refused; is the server running?
/// }
/// ```
public struct PostgresConnectionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, for a program to act on: the explorer exits 69 when the server is
    /// ``unreachable``, 65 otherwise.
    public enum Kind: Sendable, Equatable {
        /// No server answered at the host and port.
        case unreachable
        /// The server refused the user or the password.
        case loginRefused
        /// The server has no database of that name.
        case noDatabase
        /// The connection ended while in use (the server stopped, the session was terminated,
        /// the network went away): what was in flight did not commit.
        case lost
        /// Anything else the driver or the server said.
        case other
    }

    /// `postgres://user@host:port/database`.
    public let server: String
    /// What went wrong.
    public let kind: Kind
    /// What the server or the network said.
    public let reason: String
    private let place: String

    init(server: PostgresServer, kind: Kind, reason: String) {
        self.server = server.description
        self.kind = kind
        self.reason = reason
        self.place = server.placeForPeople
    }

    public var description: String {
        switch kind {
        case .lost: "the connection to the server was lost (PostgreSQL at \(place): \(reason)); what was in flight did not commit"
        default: "cannot connect to PostgreSQL at \(place): \(reason)"
        }
    }

    /// What connecting threw, in words.
    init(connecting error: any Error, server: PostgresServer) {
        if let error = error as? PostgresConnectionError {
            self = error
            return
        }
        guard let psql = error as? PSQLError else {
            self.init(server: server, kind: .other, reason: String(describing: error))
            return
        }
        let message = psql.serverInfo?[.message]
        switch psql.serverInfo?[.sqlState] {
        case "28P01", "28000":
            self.init(server: server, kind: .loginRefused, reason: "\(message ?? "login refused"); check the user and the password (in the URL, PGPASSWORD or ~/.pgpass)")
        case "3D000":
            self.init(server: server, kind: .noDatabase, reason: "\(message ?? "no such database"); create it first (createdb \(server.database))")
        case .some(let state):
            self.init(server: server, kind: .other, reason: "\(message ?? "error") (SQLSTATE \(state))")
        case nil where psql.code == .authMechanismRequiresPassword:
            self.init(server: server, kind: .loginRefused, reason: "the server asks for a password; give it in PGPASSWORD or ~/.pgpass (or in the URL, where other users of the machine may see it)")
        case nil where psql.code == .sslUnsupported:
            self.init(server: server, kind: .unreachable, reason: "the server does not offer TLS, which sslmode=\(server.sslMode.rawValue) requires")
        case nil:
            let cause = psql.underlying.map(Self.words) ?? "\(psql.code)"
            self.init(server: server, kind: .unreachable, reason: "\(cause); is the server running and accepting TCP connections there?")
        }
    }

    /// A failed query's error when it means the connection is gone; `nil` otherwise.
    init?(lost error: any Error, server: PostgresServer) {
        if let error = error as? PostgresConnectionError, error.kind == .lost {
            self = error
            return
        }
        guard let psql = error as? PSQLError else { return nil }
        let state = psql.serverInfo?[.sqlState]
        if [PSQLError.Code.serverClosedConnection, .uncleanShutdown, .clientClosedConnection, .connectionError].contains(psql.code) {
            self.init(server: server, kind: .lost, reason: psql.underlying.map(Self.words) ?? "the server closed it")
        } else if let state, state.hasPrefix("57P") || state.hasPrefix("08") {
            self.init(server: server, kind: .lost, reason: psql.serverInfo?[.message] ?? "SQLSTATE \(state)")
        } else {
            return nil
        }
    }

    /// A network error in words: "connection refused" rather than a type's dump.
    private static func words(_ error: any Error) -> String {
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)).lowercased() }
        if let error = error as? NIOConnectionError, let first = error.connectionErrors.first {
            return words(first.error)
        }
        if error is ChannelError { return "the connection was closed" }
        return String(describing: error)
    }
}

extension PSQLError {
    /// The server's message, or the driver's code: for errors that are not about the connection.
    var serverMessage: String {
        let message = serverInfo?[.message] ?? "\(code)"
        return serverInfo?[.sqlState].map { "\(message) (SQLSTATE \($0))" } ?? message
    }
}
