import MigrationPostgres
import Testing

/// No password given in a `--postgres` URL is ever shown: not in the URL a fault names, whether
/// the password is in the user part or in `password=`, percent-encoded or holding `/` or `@`.
@Suite struct PostgresURLRedactionTests {
    @Test(arguments: [
        ("postgres://alice:s3cret@db:5432/notes", "postgres://alice:…@db:5432/notes"),
        ("postgres://alice:se/cr@t@db/notes", "postgres://alice:…@db/notes"),
        ("postgres://alice:s%2Fc%40ret@db/notes", "postgres://alice:…@db/notes"),
        ("postgres://alice@db:99999/notes?password=s3cret", "postgres://alice@db:99999/notes?password=…"),
        ("postgres://alice@db/notes?sslmode=bogus&password=s%33cret#x", "postgres://alice@db/notes?sslmode=bogus&password=…#x"),
        ("postgresql://db/notes?PASSWORD=s3cret&user=alice", "postgresql://db/notes?PASSWORD=…&user=alice"),
        ("postgres://alice@corp:s3cret@db/notes", "postgres://alice@corp:…@db/notes"),
        ("postgres://alice:pa?ss@db/notes", "postgres://alice:…@db/notes"),
        ("postgres://alice@db:5432/notes", "postgres://alice@db:5432/notes"),
    ])
    func aPasswordInAURLIsHidden(url: String, shown: String) {
        #expect(PostgresServer.redacted(url) == shown)
        #expect(!PostgresServer.redacted(url).contains("s3cret"))
    }

    @Test(arguments: [
        "postgres://alice:se/cret@db:99999/notes",
        "postgres://alice@db:99999/notes?password=secret",
        "postgres://alice@db/notes?sslmode=bogus&password=secret",
        "postgres://alice@db/notes?colour=blue&password=secret",
        "postgres://alice:secret@db:99999/notes",
        "postgres://alice:s%65cret@db:0/notes",
        "http://alice:secret@db/notes",
        "postgres://alice:secret@/notes?sslmode=verify-full&sslrootcert=",
        "postgres:/alice:secret@localhost:5498/notes",
        "postgres:alice:secret@db",
        "postgres://alice:secret",
        "//alice:secret@localhost/notes",
        "host=localhost port=5498 user=alice password=secret dbname=notes",
    ])
    func aURLThatCannotBeReadIsNamedWithoutItsPassword(url: String) {
        let error = #expect(throws: PostgresURLError.self) { try PostgresServer(url: url) }
        #expect(error.map { !"\($0)".contains("secret") && !"\($0)".contains("s%65cret") } == true, "\(error.map { "\($0)" } ?? "")")
    }
}
