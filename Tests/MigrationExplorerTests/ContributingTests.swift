import Foundation
import Testing

/// `CONTRIBUTING.md`'s layout names every target of `Package.swift`, and each library's articles
/// live in the DocC catalog of that library.
@Suite("Contributing and the catalogs")
struct ContributingTests {
    static let repository = ExampleTests.repository

    /// A target declared in `Package.swift`: its name and the folder it is built from.
    struct Target: Equatable, CustomStringConvertible {
        let name: String
        let folder: String
        var description: String { "\(name) (\(folder))" }
    }

    /// Every `.target`, `.executableTarget`, `.testTarget` and `.systemLibrary` of `manifest`,
    /// with its `path:` or the folder SwiftPM gives it by default.
    static func targets(in manifest: String) throws -> [Target] {
        let declaration = try Regex(#"\.(target|executableTarget|testTarget|systemLibrary)\(\s*name:\s*"([^"]+)""#)
        // `.target(name: "X", condition: …)` in a dependency list names a target, declares none.
        let matches = manifest.matches(of: declaration).filter { !manifest[$0.range.upperBound...].hasPrefix(", condition:") }
        return matches.enumerated().map { index, match in
            let end = index + 1 < matches.count ? matches[index + 1].range.lowerBound : manifest.endIndex
            let call = manifest[match.range.upperBound..<end]
            let name = String(match.output[2].substring ?? "")
            let path = call.firstMatch(of: /path:\s*"([^"]+)"/).map { String($0.output.1) }
            let kind = match.output[1].substring
            return Target(name: name, folder: path ?? (kind == "testTarget" ? "Tests/\(name)" : "Sources/\(name)"))
        }
    }

    static func layout() throws -> String {
        let guide = try repository.appendingPathComponent("CONTRIBUTING.md").read()
        let layout = try #require(guide.components(separatedBy: "\n## Layout\n").dropFirst().first, "no Layout in CONTRIBUTING.md")
        return layout.components(separatedBy: "\n## ").first ?? layout
    }

    static func manifest() throws -> String {
        try repository.appendingPathComponent("Package.swift").read()
    }

    @Test func theManifestIsReadAsItsTargets() throws {
        let targets = try Self.targets(in: Self.manifest())
        #expect(targets.contains(Target(name: "MigrationCore", folder: "Sources/MigrationCore")))
        #expect(targets.contains(Target(name: "CNcurses", folder: "Sources/CNcurses")))
        #expect(targets.contains(Target(name: "CSpawn", folder: "Sources/CSpawn")))
        #expect(targets.contains(Target(name: "throwaway-postgres-holder", folder: "Tests/throwaway-postgres-holder")))
        #expect(targets.filter { $0.name == "ThrowawayPostgresServer" }.count == 1)
        #expect(targets.contains(Target(name: "MigrationExplorerTests", folder: "Tests/MigrationExplorerTests")))
        #expect(targets.count > 15)
    }

    @Test func theLayoutNamesEveryTargetOfThePackage() throws {
        let layout = try Self.layout()
        for target in try Self.targets(in: Self.manifest()) {
            #expect(layout.contains("`\(target.folder)`"), "CONTRIBUTING.md's layout does not name \(target)")
        }
    }

    @Test func theLayoutNamesEverySourceFolder() throws {
        let layout = try Self.layout()
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.repository.appendingPathComponent("Sources").path)
        #expect(!folders.isEmpty)
        for folder in folders.sorted() {
            #expect(layout.contains("`Sources/\(folder)`"), "the layout does not name Sources/\(folder)")
        }
    }

    /// The library products of `Package.swift`.
    static func libraries() throws -> [String] {
        try Self.manifest().matches(of: /\.library\(name:\s*"([^"]+)"/).map { String($0.output.1) }
    }

    /// The catalogs in the repository, wherever they are, by module folder.
    static func catalogs() throws -> [String] {
        let sources = repository.appendingPathComponent("Sources")
        return try FileManager.default.contentsOfDirectory(atPath: sources.path).flatMap { module in
            let folder = sources.appendingPathComponent(module).path
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
            return entries.filter { $0.hasSuffix(".docc") }.map { "Sources/\(module)/\($0)" }
        }.sorted()
    }

    static func articles(in catalog: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: repository.appendingPathComponent(catalog).path)
            .filter { $0.hasSuffix(".md") }.map { String($0.dropLast(3)) }.sorted()
    }

    @Test func everyLibraryHasACatalogOfItsOwnAndNoOtherModuleHasOne() throws {
        let libraries = try Self.libraries()
        #expect(libraries.count == 6)
        #expect(try Self.catalogs() == libraries.map { "Sources/\($0)/\($0).docc" }.sorted())
        for library in libraries {
            let landing = try Self.repository.appendingPathComponent("Sources/\(library)/\(library).docc/\(library).md").read()
            #expect(landing.hasPrefix("# ``\(library)``\n"), "\(library)'s landing page is not about \(library)")
        }
    }

    /// An article links only its own catalog's articles (DocC resolves no other), and its landing
    /// page lists every one of them.
    @Test func everyArticleIsListedAndLinksOnlyItsOwnCatalog() throws {
        for catalog in try Self.catalogs() {
            let articles = try Self.articles(in: catalog)
            let module = String(catalog.split(separator: "/")[1])
            let landing = try Self.repository.appendingPathComponent("\(catalog)/\(module).md").read()
            for article in articles where article != module {
                #expect(landing.contains("<doc:\(article)>"), "\(module)'s landing page does not list \(article)")
            }
            for article in articles {
                let text = try Self.repository.appendingPathComponent("\(catalog)/\(article).md").read()
                for link in text.matches(of: /<doc:([A-Za-z0-9-]+)>/) {
                    #expect(articles.contains(String(link.output.1)), "\(catalog)/\(article).md links <doc:\(link.output.1)>, which is not in its catalog")
                }
            }
        }
    }

    /// Where each article is, by the module it describes.
    @Test("an article lives in the catalog of the module it describes", arguments: [
        ("TheTerminalUI", "MigrationExplorer"), ("TheCommandLine", "MigrationExplorer"),
        ("ExplorerForQA", "MigrationExplorer"), ("EmbeddingTheExplorer", "MigrationExplorer"),
        ("ExactlyOnceWithSQLite", "MigrationSQLite"), ("FleetsOnPostgreSQL", "MigrationPostgres"),
        ("ManifestFormat", "MigrationManifest"), ("SwitchingFromMTMigration", "MigrationCore"),
    ])
    func articleLivesInItsModule(article: String, module: String) throws {
        let places = try Self.catalogs().filter { try Self.articles(in: $0).contains(article) }
        #expect(places == ["Sources/\(module)/\(module).docc"])
    }
}
