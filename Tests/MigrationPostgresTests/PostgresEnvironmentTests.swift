import Foundation
import MigrationPostgres
import Testing

/// libpq's conventions, as `psql` follows them: what the URL gives wins, then `PGHOST`,
/// `PGPORT`, `PGUSER`, `PGDATABASE`, `PGPASSWORD`, `PGSSLMODE`, then the password file, then
/// the defaults. The environment and the home folder are given, never the process's own.
@Suite struct PostgresEnvironmentTests {
    static let environment = ["PGHOST": "env-host", "PGPORT": "6000", "PGUSER": "env_user", "PGDATABASE": "env_db",
                              "PGPASSWORD": "env-secret", "PGSSLMODE": "verify-full"]

    @Test func theEnvironmentFillsWhatTheURLLeavesOut() throws {
        let server = try PostgresServer(url: "postgres://", environment: Self.environment, home: nil)
        #expect(server.host == "env-host")
        #expect(server.port == 6000)
        #expect(server.user == "env_user")
        #expect(server.database == "env_db")
        #expect(server.password == "env-secret")
        #expect(server.sslMode == .verifyFull)
    }

    @Test func whatTheURLGivesWinsOverTheEnvironment() throws {
        let server = try PostgresServer(url: "postgres://alice:url-secret@db:5433/notes?sslmode=disable", environment: Self.environment, home: nil)
        #expect([server.host, "\(server.port)", server.user, server.database, server.password ?? "none"] == ["db", "5433", "alice", "notes", "url-secret"])
        #expect(server.sslMode == .disable)
    }

    @Test func withoutURLOrEnvironmentTheDefaultsAreLibpqs() throws {
        let server = try PostgresServer(url: "postgres://", environment: [:], home: nil)
        #expect(server.host == "localhost")
        #expect(server.port == 5432)
        #expect(server.database == server.user)
        #expect(server.password == nil)
        #expect(server.sslMode == .prefer)
    }

    @Test(arguments: [("PGPORT", "99999", "PGPORT=99999"), ("PGPORT", "five", "PGPORT=five"), ("PGSSLMODE", "always", "PGSSLMODE=always")])
    func aVariableThatCannotBeReadIsAnError(name: String, value: String, named: String) {
        let error = #expect(throws: PostgresURLError.self) { try PostgresServer(url: "postgres://db/notes", environment: [name: value], home: nil) }
        #expect(error.map { "\($0)".contains(named) } == true, "\(error.map { "\($0)" } ?? "")")
    }

    @Test func theRootCertificateComesFromTheURLThenPGSSLROOTCERT() throws {
        let fromURL = try PostgresServer(url: "postgres://db/notes?sslmode=verify-ca&sslrootcert=/etc/ca.pem", environment: ["PGSSLROOTCERT": "/env/ca.pem"], home: nil)
        #expect(fromURL.sslRootCertificate == "/etc/ca.pem")
        let fromEnvironment = try PostgresServer(url: "postgres://db/notes", environment: ["PGSSLROOTCERT": "/env/ca.pem"], home: nil)
        #expect(fromEnvironment.sslRootCertificate == "/env/ca.pem")
        let system = try PostgresServer(url: "postgres://db/notes", environment: [:], home: "/nonexistent-home")
        #expect(system.sslRootCertificate == nil, "no ~/.postgresql/root.crt: the system's trust roots")
    }

    @Test func thePasswordFileIsReadWhenNeitherTheURLNorPGPASSWORDGivesOne() throws {
        let home = try makePasswordFile("db:5433:notes:alice:file-secret\n", mode: 0o600)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let url = "postgres://alice@db:5433/notes"
        #expect(try PostgresServer(url: url, environment: [:], home: home).password == "file-secret")
        #expect(try PostgresServer(url: url, environment: ["PGPASSWORD": "env-secret"], home: home).password == "env-secret")
        #expect(try PostgresServer(url: "postgres://alice:url-secret@db:5433/notes", environment: [:], home: home).password == "url-secret")
        #expect(try PostgresServer(url: "postgres://alice@db:5434/notes", environment: [:], home: home).password == nil, "another port")
    }

    @Test func PGPASSFILENamesThePasswordFile() throws {
        let home = try makePasswordFile("*:*:*:*:file-secret\n", mode: 0o600)
        defer { try? FileManager.default.removeItem(atPath: home) }
        let server = try PostgresServer(url: "postgres://alice@db/notes", environment: ["PGPASSFILE": home + "/.pgpass"], home: "/nonexistent-home")
        #expect(server.password == "file-secret")
    }

    @Test(arguments: [0o644, 0o640, 0o604, 0o660])
    func aPasswordFileOthersCanReadIsIgnoredWithAWarning(mode: Int) throws {
        let home = try makePasswordFile("*:*:*:*:file-secret\n", mode: mode_t(mode))
        defer { try? FileManager.default.removeItem(atPath: home) }
        var warnings: [String] = []
        let server = try PostgresServer(url: "postgres://alice@db/notes", environment: [:], home: home, warn: { warnings.append($0) })
        #expect(server.password == nil)
        #expect(warnings == ["password file \(home)/.pgpass has group or world access (mode \(String(mode, radix: 8))); permissions should be u=rw (0600) or less: it is ignored"])
    }

    @Test(arguments: [
        ("db:5432:notes:alice:exact", "exact"),
        ("*:*:*:*:any", "any"),
        ("other:*:*:*:no\ndb:*:*:alice:second", "second"),
        ("# db:*:*:*:comment\n*:5432:*:*:after-comment", "after-comment"),
        ("db:5432:notes:alice:first\n*:*:*:*:later", "first"),
        (#"db:5432:notes:alice:pa\:ss\\word"#, #"pa:ss\word"#),
        (#"d\:b:*:*:*:escaped-host"#, nil),
        ("db:5432:notes:bob:not-alice", nil),
        ("db:5432:notes", nil),
    ] as [(String, String?)])
    func aPasswordFileLineMatchesAsLibpqMatchesIt(lines: String, password: String?) {
        #expect(PostgresPasswordFile.password(in: lines, host: "db", port: 5432, database: "notes", user: "alice") == password)
    }

    private func makePasswordFile(_ text: String, mode: mode_t) throws -> String {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("pgpass-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: home + "/.pgpass"))
        #expect(chmod(home + "/.pgpass", mode) == 0)
        return home
    }
}
