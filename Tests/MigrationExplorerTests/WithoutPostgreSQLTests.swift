#if !PostgreSQL
import Foundation
import Testing

/// A build without the `PostgreSQL` trait (the default) has no PostgreSQL store: `--postgres`
/// says so, and how to build it in, before anything else.
@Suite("Without PostgreSQL")
struct WithoutPostgreSQLTests {
    @Test(arguments: [["plan"], ["run"], ["reset"], ["set", "--version", "1.0"], ["plan", "--json"]])
    func postgresInABuildWithoutTheTraitSaysHowToBuildItIn(_ command: [String]) async throws {
        let result = try await Executable.run(command + ["--postgres", "postgres://alice:secret@db.example/notes"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect((result.stderr + result.stdout).contains("built without PostgreSQL"))
        #expect((result.stderr + result.stdout).contains("--traits PostgreSQL"))
        #expect(!(result.stderr + result.stdout).contains("secret"))
    }
}
#endif
