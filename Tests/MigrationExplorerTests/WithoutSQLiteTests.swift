#if !SQLite
import Foundation
import Testing

/// A build without the `SQLite` trait (`traits: []`) has no SQLite store: `--sqlite` says so,
/// and how to build it in, before anything else, as `--postgres` does without PostgreSQL.
@Suite("Without SQLite")
struct WithoutSQLiteTests {
    @Test(arguments: [["plan"], ["run"], ["reset"], ["set", "--version", "1.0"], ["plan", "--json"]])
    func sqliteInABuildWithoutTheTraitSaysHowToBuildItIn(_ command: [String]) async throws {
        let folder = try makeTemporaryFolder()
        let result = try await Executable.run(command + ["--sqlite", "app.sqlite"], in: folder)
        #expect(result.status == 64, "\(result.stderr)")
        #expect((result.stderr + result.stdout).contains("--sqlite: this migration-explorer was built without SQLite; build it with the SQLite trait"))
        #expect((result.stderr + result.stdout).contains("--traits SQLite"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("app.sqlite").path))
    }
}
#endif
