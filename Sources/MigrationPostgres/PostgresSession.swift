import Foundation
import Logging
import MigrationCore
import PostgresNIO

/// The one connection of a ``PostgresMigrationStore`` object, opened by its first use and
/// opened again after it was lost. One thread at a time uses it (calls nest on one thread);
/// each call waits for the server's answer on the calling thread, which must not be one of
/// the driver's event loops.
///
/// Its advisory locks are session locks: they end with the connection, so a killed or cut-off
/// process never leaves one held. Its socket is close-on-exec, so a command started while it is
/// open does not inherit it unless handed it: a block's shell command is (see
/// ``blockSocket``), so that the block's transaction and locks last as long as the command
/// does, even when its runner is killed.
final class PostgresSession: @unchecked Sendable {
    // Safe: `connection`, `depth`, `runningBlocks` and `tablesReady` are only touched while
    // `lock` is held.
    private let lock = RecursiveLock()
    private var connection: PostgresConnection?
    /// The open connection's socket.
    private var socket: Int32?
    /// How deep the current thread is inside ``inTransaction(_:)``.
    private(set) var depth = 0
    /// The blocks running on this connection (a block that calls itself finds itself here).
    var runningBlocks: Set<String> = []
    /// Whether the record tables are known to exist.
    var tablesReady = false
    /// How many block locks (session advisory locks) the connection holds: a connection lost
    /// meanwhile is not opened again silently, as a new one would hold none of them.
    var blockLocks = 0

    let server: PostgresServer
    /// How `pg_stat_activity` names this session: `migration-explorer <pid> <host>`.
    let applicationName: String
    private let logger = Logger(label: "MigrationPostgres", factory: { _ in SwiftLogNoOpLogHandler() })

    init(server: PostgresServer) {
        self.server = server
        self.applicationName = PostgresLockHolder.applicationName(since: nil)
    }

    deinit { Self.close(connection) }

    /// Closes `connection`, keeping it until it is closed (the driver asserts that a connection
    /// is closed before it goes).
    private static func close(_ connection: PostgresConnection?) {
        guard let connection, !connection.isClosed else { return }
        connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    /// Runs `body` while no other thread uses the connection.
    func exclusive<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        try lock.withLock(body)
    }

    /// Runs `query` and returns its rows, connecting first if need be.
    /// - Throws: ``PostgresConnectionError`` when the server cannot be reached, refuses the
    ///   login or the connection is lost; the server's error otherwise (`PSQLError`).
    @discardableResult
    func query(_ query: PostgresQuery) throws -> [PostgresRow] {
        try exclusive {
            let connection = try connected()
            do {
                return try connection.query(query, logger: logger).wait().rows
            } catch {
                if let lost = PostgresConnectionError(lost: error, server: server) {
                    Self.close(self.connection)
                    self.connection = nil
                    tablesReady = false
                    throw lost
                }
                throw error
            }
        }
    }

    /// Opens the connection now, if it is not open: the faults of connecting surface here.
    /// - Throws: ``PostgresConnectionError``.
    func connect() throws {
        _ = try exclusive { try connected() }
    }

    /// Closes the connection; the next use opens a new one.
    func close() {
        exclusive {
            Self.close(connection)
            connection = nil
            tablesReady = false
        }
    }

    /// Runs `body` in one transaction on this connection, which commits when it returns and
    /// rolls back when it throws; nested calls on one thread share the outer one.
    func inTransaction<T>(_ body: () throws -> T) throws -> T {
        try exclusive {
            if depth > 0 { return try body() }
            try query("BEGIN")
            depth = 1
            defer { depth = 0 }
            do {
                let result = try body()
                try query("COMMIT")
                return result
            } catch {
                // The rollback may undo the tables' creation.
                tablesReady = false
                if connection != nil { _ = try? query("ROLLBACK") }
                throw error
            }
        }
    }

    /// The connection's socket while a block runs on it, for that block's shell command to
    /// inherit; `nil` outside blocks or when not connected.
    var blockSocket: Int32? {
        exclusive { runningBlocks.isEmpty || connection?.isClosed != false ? nil : socket }
    }

    private func connected() throws -> PostgresConnection {
        if let connection, !connection.isClosed { return connection }
        // A transaction lives and dies with its connection: a new one would run the rest of it
        // outside the transaction and without its lock.
        if depth > 0 { throw PostgresConnectionError(server: server, kind: .lost, reason: "it closed inside a transaction") }
        if blockLocks > 0 { throw PostgresConnectionError(server: server, kind: .lost, reason: "it closed while it held a migration's lock") }
        let opened = try server.openConnectionAndSocket(applicationName: applicationName, logger: logger)
        connection = opened.connection
        socket = opened.socket
        return opened.connection
    }
}
