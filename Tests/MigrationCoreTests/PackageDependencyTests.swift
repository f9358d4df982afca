import Foundation
import MigrationTestSupport
import Testing

/// What the package's manifest lets each target link, read from `swift package dump-package`:
/// every app links MigrationCore, so it brings no package with it, and nothing the package
/// ships (the benchmark included) is built from test code.
@Suite("Package dependencies", .onThreadOfItsOwn)
struct PackageDependencyTests {
    @Test func migrationCoreAndWhatItLinksDependOnNoPackage() throws {
        let manifest = try PackageManifest.dumped()
        let linked = try manifest.targetsLinked(by: "MigrationCore")
        #expect(linked.contains("MigrationCore"))
        for target in linked.sorted() {
            let products = try manifest.products(of: target)
            #expect(products.isEmpty, "\(target) depends on \(products)")
        }
    }

    @Test func theBenchmarkIsBuiltFromNothingUnderTests() throws {
        let manifest = try PackageManifest.dumped()
        let linked = try manifest.targetsLinked(by: "migration-bench")
        #expect(linked.contains("MigrationCore"))
        for target in linked.sorted() {
            let path = try manifest.path(of: target)
            #expect(!path.hasPrefix("Tests/"), "migration-bench links \(target), under \(path)")
        }
    }
}

/// The package's manifest as `swift package dump-package` prints it, with every trait counted.
private struct PackageManifest {
    let targets: [String: [String: Any]]

    /// The repository's manifest, dumped with a scratch folder of its own (so that it never
    /// waits for the build folder a running build holds).
    static func dumped() throws -> PackageManifest {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("dump-package-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = SpawnedProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "package", "--package-path", repository.path, "--scratch-path", scratch.path, "dump-package"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "dump-package printed no JSON object")
        let targets = try #require(root["targets"] as? [[String: Any]], "the dump has no targets")
        return PackageManifest(targets: Dictionary(uniqueKeysWithValues: targets.compactMap { target in
            (target["name"] as? String).map { ($0, target) }
        }))
    }

    /// `name` and every target it links, directly or not, under any trait.
    func targetsLinked(by name: String) throws -> Set<String> {
        var found: Set<String> = [], waiting = [name]
        while let next = waiting.popLast() {
            guard found.insert(next).inserted else { continue }
            waiting += try dependencies(of: next).compactMap { dependency in
                (dependency["byName"] ?? dependency["target"]).flatMap { ($0 as? [Any])?.first as? String }
            }.filter { targets[$0] != nil }
        }
        return found
    }

    /// The products of other packages `name` depends on, by product or by a name no target has.
    func products(of name: String) throws -> [String] {
        try dependencies(of: name).compactMap { dependency in
            if let product = (dependency["product"] as? [Any])?.first as? String { return product }
            return ((dependency["byName"] as? [Any])?.first as? String).flatMap { targets[$0] == nil ? $0 : nil }
        }
    }

    /// Where `name`'s sources are, relative to the repository.
    func path(of name: String) throws -> String {
        let target = try #require(targets[name], "no target \(name)")
        if let path = target["path"] as? String { return path }
        return target["type"] as? String == "test" ? "Tests/\(name)" : "Sources/\(name)"
    }

    private func dependencies(of name: String) throws -> [[String: Any]] {
        let target = try #require(targets[name], "no target \(name)")
        return target["dependencies"] as? [[String: Any]] ?? []
    }
}
