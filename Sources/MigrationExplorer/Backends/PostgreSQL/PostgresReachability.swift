#if PostgreSQL
import MigrationPostgres

/// Checks, before anything runs, that `--postgres` names a server that answers and a database
/// this role may log in to: an unreachable server is exit 69 (`EX_UNAVAILABLE`), a refused
/// login or a missing database exit 65, each naming the host, the port and the database.
///
/// ```swift
/// try PostgresReachability.check(server)   // cannot connect to PostgreSQL at db:5432, database notes: connection refused; …
/// ```
enum PostgresReachability {
    /// `EX_UNAVAILABLE`: the server cannot be reached.
    static let unavailable = ExitStatus.serverUnavailable.rawValue

    static func check(_ server: PostgresServer) throws(CommandFailure) {
        let store = PostgresMigrationStore(server: server)
        defer { store.close() }
        do { try store.connect() } catch let error as PostgresConnectionError {
            throw CommandFailure(.store, error.description, path: server.description, status: error.kind == .unreachable ? unavailable : nil)
        } catch {
            throw CommandFailure(.store, String(describing: error), path: server.description)
        }
    }
}
#endif
