import Foundation
import Logging
import PostgresNIO

extension PostgresServer {
    /// Opens a connection to the server, the session named `applicationName` in
    /// `pg_stat_activity`, its socket close-on-exec; the calling thread waits, so it must not
    /// be one of the driver's event loops (nor, for a long wait, one of the concurrency pool's).
    ///
    /// ```swift
    /// let connection = try server.openConnection(applicationName: "migration-explorer 4121 web-1", logger: logger)
    /// ```
    /// - Throws: ``PostgresConnectionError`` when the server cannot be reached or refuses the login.
    func openConnection(applicationName: String, logger: Logger) throws -> PostgresConnection {
        try openConnectionAndSocket(applicationName: applicationName, logger: logger).connection
    }

    /// ``openConnection(applicationName:logger:)``, with the connection's socket: the
    /// descriptor a shell command of a block inherits to keep the session (and its locks)
    /// alive as long as the command lives.
    func openConnectionAndSocket(applicationName: String, logger: Logger) throws -> (connection: PostgresConnection, socket: Int32) {
        guard MultiThreadedEventLoopGroup.currentEventLoop == nil else {
            throw PostgresConnectionError(server: self, kind: .other, reason: "a PostgreSQL store was used from one of SwiftNIO's event loops, where waiting for the server would wait forever; use it from a task or a thread of your own")
        }
        let loop: any EventLoop
        do { loop = try DriverEventLoops.next() } catch {
            throw PostgresConnectionError(server: self, kind: .other, reason: error.reason)
        }
        let descriptor: Int32
        do { descriptor = try CloseOnExecSocket.connect(host: host, port: port, timeout: 10) } catch {
            if error.isLocal { throw PostgresConnectionError(server: self, kind: .other, reason: error.reason) }
            throw PostgresConnectionError(server: self, kind: .unreachable, reason: "\(error.reason); is the server running and accepting TCP connections there?")
        }
        do {
            let channel = try ClientBootstrap(group: loop).withConnectedSocket(descriptor).wait()
            let configuration = try configuration(establishedChannel: channel, applicationName: applicationName)
            let connection = try PostgresConnection.connect(on: channel.eventLoop, configuration: configuration, id: Int.random(in: 0...Int.max), logger: logger).wait()
            return (connection, descriptor)
        } catch {
            throw PostgresConnectionError(connecting: error, server: self)
        }
    }
}
