#if PostgreSQL
import Foundation
import MigrationTestSupport
import ThrowawayPostgresServer
import Testing

/// `--postgres` keeps its secrets: no fault prints a password given in the URL, libpq's
/// environment and password file log in as they do for `psql` (so no password need be on a
/// command line), `sslmode` from `PGSSLMODE` is obeyed, and a manifest's commands do not get the
/// store's `PGPASSWORD`.
extension PostgresCommandTests {
    static let secret = "Hunter2Secret"

    /// Each URL fails before anything runs, the password in it in one form or another.
    static let faultyURLs: [(url: String, status: Int32)] = [
        ("postgres://alice@127.0.0.1:99999/notes?password=\(secret)", 64),
        ("postgres://alice:\(secret)@127.0.0.1:99999/notes", 64),
        ("postgres://alice@127.0.0.1/notes?sslmode=bogus&password=\(secret)", 64),
        ("postgres://alice@127.0.0.1/notes?colour=blue&password=\(secret)", 64),
        ("postgres://alice:\(secret)/x@127.0.0.1/notes", 64),
        ("postgres://alice:Hunter2%53ecret@127.0.0.1:0/notes", 64),
        ("postgres://alice:\(secret)@127.0.0.1:1/notes", 69),
    ]

    @Test(arguments: faultyURLs)
    func noFaultOfAURLPrintsItsPasswordInTextOrJSON(url: String, status: Int32) async throws {
        for json in [false, true] {
            let result = try await Executable.run(["plan", "--postgres", url] + (json ? ["--json"] : []))
            #expect(result.status == status, "\(result.stdout)\(result.stderr)")
            #expect(!result.stderr.isEmpty)
            for shown in [result.stdout, result.stderr] {
                #expect(!shown.contains(Self.secret) && !shown.contains("Hunter2%53ecret"), "\(shown)")
            }
            if json { #expect((try result.json()["error"] as? [String: Any])?["message"] != nil, "\(result.stdout)") }
        }
    }

    /// `postgres://` alone: host, port, user and database from libpq's variables, the password
    /// from the password file `PGPASSFILE` names.
    @Test func libpqsVariablesAndPasswordFileLogInWithNoPasswordOnTheCommandLine() async throws {
        let fixture = try Fixture()
        let server = fixture.server
        let passwordFile = fixture.folder.appendingPathComponent("pgpass")
        try passwordFile.write("# the ordinary role\n\(server.host):\(server.port):*:\(server.appUser):\(server.appPassword)\n")
        #expect(chmod(passwordFile.path, 0o600) == 0)
        let environment = ["PGHOST": server.host, "PGPORT": "\(server.port)", "PGUSER": server.appUser, "PGDATABASE": fixture.database,
                           "PGPASSWORD": "", "PGPASSFILE": passwordFile.path]
        let result = try await Executable.run(fixture.arguments(url: "postgres://"), in: fixture.folder, environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try fixture.isExactlyOnce(), "\(fixture.tally())")

        #expect(chmod(passwordFile.path, 0o644) == 0)
        let exposed = try await Executable.run(fixture.arguments("plan", url: "postgres://"), in: fixture.folder, environment: environment)
        #expect(exposed.status == 65, "a password file others can read is not used: \(exposed.stderr)")
        #expect(exposed.stderr.contains("password file \(passwordFile.path) has group or world access (mode 644)"), "\(exposed.stderr)")
    }

    /// libpq reads `$HOME/.pgpass`: with `HOME` pointing at a folder whose `.pgpass` holds the
    /// password, no password is asked for (or given) anywhere else.
    @Test func thePasswordFileIsReadFromHOMEAsLibpqReadsIt() async throws {
        let fixture = try Fixture()
        let server = fixture.server
        let passwordFile = fixture.folder.appendingPathComponent(".pgpass")
        try passwordFile.write("\(server.host):\(server.port):*:\(server.appUser):\(server.appPassword)\n")
        #expect(chmod(passwordFile.path, 0o600) == 0)
        let environment = ["PGHOST": server.host, "PGPORT": "\(server.port)", "PGUSER": server.appUser, "PGDATABASE": fixture.database,
                           "PGPASSWORD": "", "PGPASSFILE": "", "HOME": fixture.folder.path]
        let result = try await Executable.run(fixture.arguments(url: "postgres://"), in: fixture.folder, environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try fixture.isExactlyOnce(), "\(fixture.tally())")
    }

    @Test func PGSSLMODEVerifyFullRefusesAServerWithoutTLSInsteadOfGoingOutInPlainText() async throws {
        let fixture = try Fixture()
        let result = try await Executable.run(fixture.arguments("plan"), in: fixture.folder, environment: ["PGSSLMODE": "verify-full"])
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.contains("the server does not offer TLS, which sslmode=verify-full requires"), "\(result.stderr)")
    }

    /// A command sees `PGPASSWORD` only when it is not the store's password.
    @Test func aManifestCommandDoesNotInheritTheStoresPGPASSWORD() async throws {
        let fixture = try Fixture(command: "echo \"[${PGPASSWORD-unset}]\" > seen.txt")
        let server = fixture.server
        let bare = "postgres://\(server.appUser)@\(server.host):\(server.port)/\(fixture.database)"
        let result = try await Executable.run(fixture.arguments(url: bare), in: fixture.folder, environment: ["PGPASSWORD": server.appPassword])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try fixture.folder.appendingPathComponent("seen.txt").read() == "[unset]\n")

        let other = try Fixture(command: "echo \"[${PGPASSWORD-unset}]\" > seen.txt")
        let unrelated = try await Executable.run(other.arguments(), in: other.folder, environment: ["PGPASSWORD": "another-database"])
        #expect(unrelated.status == 0, "\(unrelated.stderr)")
        #expect(try other.folder.appendingPathComponent("seen.txt").read() == "[another-database]\n", "not the store's: passed on")
    }

    /// Under a low `ulimit -n` (16, say) the driver cannot start its event loops: a message
    /// naming the limit, never SwiftNIO's assertion. How many descriptors a process inherits
    /// varies, so every limit from 12 to 24 is tried (below about 10, the Swift runtime's own
    /// threads cannot start, store or not).
    @Test func tooFewFileDescriptorsForTheDriverIsAMessageNotACrash() async throws {
        let fixture = try Fixture()
        func plan(_ limit: Int) async throws -> Executable.Result {
            try await Executable.run(["-c", "ulimit -n \(limit) && exec \"$0\" \"$@\"", Executable.url.path] + fixture.arguments("plan"),
                               in: fixture.folder, binary: URL(fileURLWithPath: "/bin/sh"))
        }
        var refused = 0
        // Below the explorer's own floor it says so before starting (71); above it, the driver
        // gets what it needs or says it cannot (65); it never stops on an assertion.
        for limit in 12...40 {
            let result = try await plan(limit)
            let tooLow = result.status == 71 && result.stderr.contains("may open only \(limit) files")
            let driver = result.status == 65 && (result.stderr.contains("too few file descriptors are free to start the driver")
                || result.stderr.contains("too many open files: this process has (ulimit -n is \(limit)) no file descriptor free"))
            #expect(result.status == 0 || tooLow || driver, "ulimit -n \(limit): \(result.status) \(result.stderr)")
            if tooLow || driver { refused += 1 }
        }
        #expect(refused > 0, "no limit was low enough to be refused")
    }
}
#endif
