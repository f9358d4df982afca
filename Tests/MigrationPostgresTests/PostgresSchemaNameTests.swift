import MigrationPostgres
import ThrowawayPostgresServer
import Testing

/// A schema name is one PostgreSQL takes unquoted and means as written: the server itself says
/// which names those are.
@Suite struct PostgresSchemaNameTests {
    static let accepted = ["migration_explorer", "fleet_a", "_notes", "notes$2", "int", "schema", "éclair", String(repeating: "a", count: 63)]

    @Test(arguments: accepted)
    func aNameTheServerTakesUnquotedIsAccepted(name: String) throws {
        #expect(try PostgresSchemaName(name).name == name)
        let database = try TestDatabase()
        _ = try database.answer("CREATE SCHEMA \(name)")
        #expect(try database.answer("SELECT nspname FROM pg_namespace WHERE nspname = '\(name)'") == name, "the server keeps the name as written")
    }

    @Test func everyKeyWordTheServerReservesIsRefused() throws {
        let database = try TestDatabase()
        let reserved = try database.answer("SELECT string_agg(word, ' ') FROM pg_get_keywords() WHERE catcode IN ('R', 'T')").split(separator: " ")
        #expect(reserved.count > 90)
        let taken = reserved.filter { (try? PostgresSchemaName(String($0))) != nil }
        #expect(taken.isEmpty, "taken, though the server would not: \(taken)")
    }

    @Test(arguments: ["", "Fleet", "fleet-a", "9lives", "a b", "user", "pg_fleet", "information_schema", "public", String(repeating: "a", count: 64)])
    func aNameTheServerWouldNotTakeOrThatIsNotTheStoresOwnIsRefused(name: String) {
        #expect(throws: PostgresSchemaNameError.self) { try PostgresSchemaName(name) }
    }
}

/// The store takes its schema as a ``PostgresSchemaName``: a name the type refuses never
/// reaches it.
@Suite struct PostgresStoreSchemaTests {
    @Test func aStoreIsMadeWithASchemaNameAndARefusedNameNeverMakesOne() throws {
        let server = try PostgresServer(url: "postgres://app@127.0.0.1:1/nowhere")
        #expect(PostgresMigrationStore(server: server, schema: try PostgresSchemaName("fleet_a")).schema == "fleet_a")
        #expect(PostgresMigrationStore(server: server).schema == PostgresSchemaName.default.name)
        let refused = #expect(throws: PostgresSchemaNameError.self) {
            try PostgresMigrationStore(url: "postgres://app@127.0.0.1:1/nowhere", schema: try PostgresSchemaName("public"))
        }
        #expect(refused?.name == "public")
    }
}
