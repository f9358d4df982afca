import Foundation
import Testing

/// The switching snippets of the DocC article (all of them) and of the README (the ones it
/// shows) are the code these tests compile: each block that follows a `<!-- snippet: NAME -->`
/// line equals the lines between `// snippet: NAME` and `// end snippet` in this folder's files,
/// after the file's imports.
@Suite("README snippets")
struct ReadmeSnippetTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let root = folder.deletingLastPathComponent().deletingLastPathComponent()
    static let readme = root.appendingPathComponent("README.md")
    static let article = root.appendingPathComponent("Sources/MigrationCore/MigrationCore.docc/SwitchingFromMTMigration.md")

    /// The snippets in this folder's Swift files, by name, unindented.
    static func compiledSnippets() throws -> [String: String] {
        var snippets: [String: String] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
            let lines = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8).components(separatedBy: "\n")
            var name: String?
            var body: [String] = []
            for line in lines {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("// snippet: ") {
                    name = String(trimmed.dropFirst("// snippet: ".count))
                    body = []
                } else if trimmed == "// end snippet", let current = name {
                    let imports = lines.filter { $0.hasPrefix("import ") }
                    snippets[current] = (imports + body.map { String($0.drop { $0 == " " }) }).joined(separator: "\n")
                    name = nil
                } else if name != nil {
                    body.append(line)
                }
            }
        }
        return snippets
    }

    /// A page's snippets, by name: the code block after each marker, without blank lines.
    static func documentedSnippets(in page: URL) throws -> [String: String] {
        let lines = try String(contentsOf: page, encoding: .utf8).components(separatedBy: "\n")
        var snippets: [String: String] = [:]
        for (index, line) in lines.enumerated() where line.hasPrefix("<!-- snippet: ") && line.hasSuffix(" -->") {
            let name = String(line.dropFirst("<!-- snippet: ".count).dropLast(" -->".count))
            guard index + 1 < lines.count, lines[index + 1] == "```swift" else { continue }
            let body = lines[(index + 2)...].prefix { $0 != "```" }.filter { !$0.isEmpty }
            snippets[name] = body.joined(separator: "\n")
        }
        return snippets
    }

    @Test func everyReadmeSwitchingSnippetIsCompiledCode() throws {
        let compiled = try Self.compiledSnippets()
        let documented = try Self.documentedSnippets(in: Self.readme)
        #expect(Set(compiled.keys) == ["from-mtmigration", "from-mtmigration-swift-pod", "from-clafou", "from-hengyu"])
        #expect(!documented.isEmpty, "the README shows no switching snippet")
        for (name, code) in documented { #expect(compiled[name] == code, "README snippet \(name) differs from the compiled code") }
    }

    @Test func everySwitchingArticleSnippetIsCompiledCode() throws {
        let compiled = try Self.compiledSnippets()
        let documented = try Self.documentedSnippets(in: Self.article)
        #expect(Set(documented.keys) == Set(compiled.keys))
        for (name, code) in compiled { #expect(documented[name] == code, "DocC article snippet \(name) differs from the compiled code") }
    }
}
