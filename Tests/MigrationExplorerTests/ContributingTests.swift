import Foundation
import Testing

/// The layout in the Development article names every target the package builds from `Sources/`.
@Suite("Development article")
struct DevelopmentArticleTests {
    @Test func theLayoutNamesEverySourceFolder() throws {
        let article = try ExampleTests.repository.appendingPathComponent("Sources/MigrationCore/MigrationCore.docc/Development.md").read()
        let layout = try #require(article.components(separatedBy: "### Layout").dropFirst().first, "no Layout in the Development article")
        let folders = try FileManager.default.contentsOfDirectory(atPath: ExampleTests.repository.appendingPathComponent("Sources").path)
        #expect(!folders.isEmpty)
        for folder in folders.sorted() {
            #expect(layout.contains("`Sources/\(folder)`"), "the layout does not name Sources/\(folder)")
        }
    }
}
