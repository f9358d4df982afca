import Foundation
import MigrationCore
import Testing

/// `reset` on files with several domains, and on a corrupt file.
@Suite("Reset")
struct ResetTests {
    /// A state file with "database" and "defaults" domains, each at 0.9.
    func twoDomains(in folder: URL) async throws -> String {
        let manifest = folder.appendingPathComponent("m.json")
        try manifest.write(#"{ "appVersion": "1.0", "migrations": [ { "version": "0.9", "title": "t", "run": "true" } ] }"#)
        let store = folder.appendingPathComponent("state.json").path
        for domain in ["database", "defaults"] {
            let result = try await Executable.run(["run", "--manifest", manifest.path, "--store", store, "--domain", domain])
            #expect(result.status == 0, "\(result.stderr)")
        }
        return store
    }

    /// Each domain's last migrated version, read through the store.
    func lastMigrated(_ store: String) throws -> [String: String?] {
        let url = URL(fileURLWithPath: store)
        let names = try FileMigrationStore(url: url).domains()
        return Dictionary(uniqueKeysWithValues: try names.map { ($0, try FileMigrationStore(url: url, domain: $0).load().lastMigratedVersion) })
    }

    @Test func withSeveralDomainsAndNoneNamedItListsThemAndChangesNothing() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await twoDomains(in: folder)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let result = try await Executable.run(["reset", "--store", store])
        #expect(result.status == 64)
        #expect(result.stderr.contains("database, defaults"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    }

    @Test func domainResetsThatDomainOnlyAndSaysWhatItForgot() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await twoDomains(in: folder)
        let result = try await Executable.run(["reset", "--store", store, "--domain", "database"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("domain \"database\": forgot last migrated version 0.9, last app version 1.0;"))
        #expect(result.stdout.contains("every migration up to the app version again"))
        let domains = try lastMigrated(store)
        #expect(domains.keys.sorted() == ["database", "defaults"])
        #expect(domains["database"] == .some(nil))
        #expect(domains["defaults"] == "0.9")
    }

    @Test func allDomainsResetsEveryOne() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try await twoDomains(in: folder)
        let result = try await Executable.run(["reset", "--store", store, "--all-domains", "--json"])
        #expect(result.status == 0)
        #expect((try result.json()["domains"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["database", "defaults"])
        #expect(try lastMigrated(store).values.allSatisfy { $0 == nil })
    }

    @Test func aCorruptFileIsLeftAloneUnlessForceMovesItAside() async throws {
        let folder = try makeTemporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("state.json")
        try store.write("{ broken")
        let refused = try await Executable.run(["reset", "--store", store.path])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("--force"))
        #expect(try store.read() == "{ broken")
        let forced = try await Executable.run(["reset", "--store", store.path, "--force"])
        #expect(forced.status == 0)
        let aside = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasPrefix("state.json.corrupt-") })
        #expect(aside.range(of: #"^state\.json\.corrupt-\d{8}T\d{6}Z$"#, options: .regularExpression) != nil)
        #expect(forced.stdout.contains(aside))
        #expect(try folder.appendingPathComponent(aside).read() == "{ broken")
        #expect(try await Executable.run(["plan", "--store", store.path]).status == 0)
    }
}
