import CSpawn
import Foundation
import MigrationCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A PostgreSQL server for tests and benchmarks: `initdb` in a temporary folder, a free port,
/// `pg_ctl start`; stopped, and its folder removed, when the process ends, however it ends (a
/// crash and `kill -9` included: a ``ServerWatchdog`` sees to it). One per process, started by
/// the first call to ``shared()``. As root (PostgreSQL refuses to run as root) it runs as the `postgres` user.
/// With `MIGRATION_POSTGRES_URL` set (a superuser's URL), that server is used instead.
///
/// ```swift
/// let server = try ThrowawayPostgres.shared()
/// let url = try server.createDatabase()   // postgres://app:…@127.0.0.1:54321/t_1a2b3c, owned by an ordinary role
/// ```
public final class ThrowawayPostgres: Sendable {
    /// The host and port it listens on.
    public let host: String
    public let port: Int
    /// A superuser and its password.
    public let adminUser: String
    public let adminPassword: String
    /// The ordinary role that owns the databases of ``createDatabase(owner:)``, and its password.
    public let appUser = "app"
    public let appPassword = "app-secret"
    private let binaries: String
    /// Stops the server this process started; `nil` for one it was given.
    private let watchdog: ServerWatchdog?

    private static let started = Locked<Result<ThrowawayPostgres, ServerError>?>(nil)

    /// The process's server, started by the first call.
    /// - Throws: ``ServerError`` saying what to install when PostgreSQL's programs are missing.
    public static func shared() throws(ServerError) -> ThrowawayPostgres {
        let result = started.withLock { started in
            if let started { return started }
            let result = Result(catching: { () throws(ServerError) -> ThrowawayPostgres in try start() })
            started = result
            return result
        }
        return try result.get()
    }

    /// Where the server runs for a superuser: `postgres://postgres:…@127.0.0.1:54321/postgres`.
    public func adminURL(database: String = "postgres") -> String {
        "postgres://\(adminUser):\(adminPassword)@\(host):\(port)/\(database)"
    }

    /// A URL of `database` for the ordinary role, with its password unless `password` is given.
    public func url(database: String, password: String? = nil) -> String {
        "postgres://\(appUser):\(password ?? appPassword)@\(host):\(port)/\(database)"
    }

    /// A new empty database owned by the ordinary role; its URL.
    public func createDatabase() throws(ServerError) -> String {
        let name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        try psql("CREATE DATABASE \(name) OWNER \(appUser)")
        return url(database: name)
    }

    /// Runs `sql` as the superuser in `database`; its output, unaligned, one row a line.
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres") throws(ServerError) -> String {
        let result = try Self.run(binaries + "/psql", ["-X", "-At", "-v", "ON_ERROR_STOP=1", "-d", adminURL(database: database), "-c", sql])
        guard result.status == 0 else { throw ServerError("psql failed (\(result.status)): \(result.output)") }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Ends every session of the ordinary role on `database`, as `pg_terminate_backend` does
    /// for an administrator; the number of sessions ended.
    @discardableResult
    public func terminateSessions(database: String) throws(ServerError) -> Int {
        Int(try psql("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = '\(database)' AND usename = '\(appUser)'")) ?? 0
    }

    private init(host: String, port: Int, adminUser: String, adminPassword: String, binaries: String, watchdog: ServerWatchdog?) {
        (self.host, self.port, self.adminUser, self.adminPassword) = (host, port, adminUser, adminPassword)
        (self.binaries, self.watchdog) = (binaries, watchdog)
    }

    private static func start() throws(ServerError) -> ThrowawayPostgres {
        let binaries = try findBinaries()
        if let given = ProcessInfo.processInfo.environment["MIGRATION_POSTGRES_URL"], !given.isEmpty {
            guard let parts = URLComponents(string: given), let host = parts.host else {
                throw ServerError("MIGRATION_POSTGRES_URL=\(given) is not a postgres://user:password@host:port/database URL")
            }
            let server = ThrowawayPostgres(host: host, port: parts.port ?? 5432, adminUser: parts.user ?? "postgres",
                                           adminPassword: parts.password ?? "", binaries: binaries, watchdog: nil)
            try server.createAppRole()
            return server
        }
        let runAsPostgres = geteuid() == 0
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("throwaway-postgres-\(getpid())-\(UUID().uuidString.prefix(8))").path
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw ServerError("cannot create \(folder): \(error)")
        }
        let stop = commandLine(binaries + "/pg_ctl", ["-D", folder + "/data", "-m", "immediate", "-w", "stop"], asPostgres: runAsPostgres)
        let watchdog = try ServerWatchdog.start(stopping: stop, removing: folder)
        do {
            let server = try initialiseAndStart(binaries: binaries, in: folder, runAsPostgres: runAsPostgres, watchdog: watchdog)
            Self.stopAtExit(server)
            return server
        } catch {
            watchdog.stopNow()
            throw error
        }
    }

    /// `initdb` in `folder`, then `pg_ctl start` on a free port (five tries).
    private static func initialiseAndStart(
        binaries: String, in folder: String, runAsPostgres: Bool, watchdog: ServerWatchdog
    ) throws(ServerError) -> ThrowawayPostgres {
        let password = "admin-" + UUID().uuidString.prefix(8)
        try? password.write(toFile: folder + "/pwfile", atomically: true, encoding: .utf8)
        if runAsPostgres {
            guard let user = getpwnam("postgres") else {
                throw ServerError("PostgreSQL refuses to run as root and there is no postgres user; install PostgreSQL (apt-get install -y postgresql) or run the tests as another user")
            }
            chown(folder, user.pointee.pw_uid, user.pointee.pw_gid)
            chown(folder + "/pwfile", user.pointee.pw_uid, user.pointee.pw_gid)
        }
        let data = folder + "/data"
        let initialised = try run(binaries + "/initdb", ["-D", data, "-U", "postgres", "--pwfile", folder + "/pwfile", "-A", "scram-sha-256", "-E", "UTF8", "--no-sync"], asPostgres: runAsPostgres)
        guard initialised.status == 0 else { throw ServerError("initdb failed (\(initialised.status)): \(initialised.output)") }
        var lastOutput = ""
        for _ in 0..<5 {
            let port = freePort()
            let options = "-p \(port) -k \(folder) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=300 -c shared_buffers=16MB"
            let started = try run(binaries + "/pg_ctl", ["-D", data, "-o", options, "-l", folder + "/server.log", "-w", "-t", "60", "start"], asPostgres: runAsPostgres)
            if started.status == 0 {
                let server = ThrowawayPostgres(host: "127.0.0.1", port: port, adminUser: "postgres", adminPassword: password,
                                               binaries: binaries, watchdog: watchdog)
                try server.createAppRole()
                return server
            }
            lastOutput = started.output + ((try? String(contentsOfFile: folder + "/server.log", encoding: .utf8)) ?? "")
        }
        throw ServerError("pg_ctl start failed five times: \(lastOutput)")
    }

    private func createAppRole() throws(ServerError) {
        let exists = try psql("SELECT 1 FROM pg_roles WHERE rolname = '\(appUser)'")
        if exists.isEmpty { try psql("CREATE ROLE \(appUser) LOGIN PASSWORD '\(appPassword)'") }
    }

    /// Stops the server now (`pg_ctl stop -m immediate`) and removes its folder; a server it did
    /// not start is left alone.
    public func stop() {
        watchdog?.stopNow()
    }

    private static let atExit = Locked<ThrowawayPostgres?>(nil)

    private static func stopAtExit(_ server: ThrowawayPostgres) {
        atExit.withLock { $0 = server }
        atexit { ThrowawayPostgres.atExit.withLock { $0 }?.stop() }
    }

    /// The folder of `initdb`, `pg_ctl` and `psql`: on the `PATH`, or Debian's and Homebrew's places.
    private static func findBinaries() throws(ServerError) -> String {
        let path = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map(String.init) ?? []
        var candidates = path
        let debian = "/usr/lib/postgresql"
        if let versions = try? FileManager.default.contentsOfDirectory(atPath: debian) {
            candidates += versions.sorted { (Int($0) ?? 0) > (Int($1) ?? 0) }.map { "\(debian)/\($0)/bin" }
        }
        candidates += ["/opt/homebrew/bin", "/usr/local/bin"]
        for folder in candidates where ["initdb", "pg_ctl", "psql"].allSatisfy({ FileManager.default.isExecutableFile(atPath: "\(folder)/\($0)") }) {
            return folder
        }
        throw ServerError("PostgreSQL's server programs (initdb, pg_ctl, psql) are not installed: install them (Debian/Ubuntu: apt-get install -y postgresql; macOS: brew install postgresql@16), or set MIGRATION_POSTGRES_URL to a superuser's postgres:// URL")
    }

    /// A port nothing listens on now.
    private static func freePort() -> Int {
        let socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketDescriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketDescriptor, $0, length) == 0 ? getsockname(socketDescriptor, $0, &length) : -1 }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// `program` and its arguments, run as the `postgres` user when `asPostgres`.
    private static func commandLine(_ program: String, _ arguments: [String], asPostgres: Bool) -> [String] {
        (asPostgres ? ["/usr/bin/setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups"] : []) + [program] + arguments
    }

    /// Runs a program to its end; its status and its output and errors together. It is
    /// started with `posix_spawn` and waited for with `waitpid`: Foundation's `Process` can miss
    /// the end of a child whose own child (the server) lives on. It gets no descriptor of this
    /// process but its standard streams: the server it starts lives as long as the process, and
    /// would keep open any pipe it inherited, such as the output of a command another test
    /// waits to the end of.
    private static func run(_ program: String, _ arguments: [String], asPostgres: Bool = false) throws(ServerError) -> (status: Int32, output: String) {
        let argv = commandLine(program, arguments, asPostgres: asPostgres)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("throwaway-postgres-output-\(UUID().uuidString)").path
        defer { unlink(output) }
        let input = open("/dev/null", O_RDONLY | O_CLOEXEC)
        let written = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        defer { close(input); close(written) }
        guard input >= 0, written >= 0 else { throw ServerError("cannot open the output of \(argv[0]): \(String(cString: strerror(errno)))") }
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = cspawn(&pid, argv[0], cArguments, environ, nil, input, written, written, 0)
        guard spawned == 0 else { throw ServerError("cannot run \(argv[0]): \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        let exited = status & 0x7f == 0
        return (exited ? (status >> 8) & 0xff : 128 + (status & 0x7f), text)
    }
}

/// The throwaway server could not be started or used.
public struct ServerError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
