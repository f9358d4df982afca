import Foundation
import Testing

/// The set-up line a newcomer copies installs what `.ci/run` installs: both come from
/// `.ci/packages`, which the build and the tests need.
@Suite("Set up")
struct SetUpTests {
    /// The packages of `.ci/packages`, in its order.
    static func ciPackages() throws -> [String] {
        try ExampleTests.repository.appendingPathComponent(".ci/packages").read().split(separator: "\n")
            .compactMap { $0.split(separator: " ").first.map(String.init) }
            .filter { !$0.hasPrefix("#") }
    }

    /// The packages of every `apt-get install` in `document` between `heading` and the next
    /// heading of its level or above.
    static func installed(in document: String, under heading: String) throws -> [[String]] {
        let text = try ExampleTests.repository.appendingPathComponent(document).read()
        let section = try #require(text.components(separatedBy: "\n" + heading + "\n").dropFirst().first, "no \(heading) in \(document)")
        let level = heading.prefix { $0 == "#" }.count
        let body = section.components(separatedBy: "\n").prefix { !isHeading($0, atMost: level) }.joined(separator: "\n")
        return body.components(separatedBy: "apt-get install ").dropFirst().map { rest in
            rest.prefix { !"`)\n".contains($0) }.split(separator: " ").map(String.init)
        }
    }

    /// Whether `line` is a Markdown heading of `level` or above (`## Set up` is of level 2).
    static func isHeading(_ line: String, atMost level: Int) -> Bool {
        let hashes = line.prefix { $0 == "#" }.count
        return hashes > 0 && hashes <= level && line.dropFirst(hashes).hasPrefix(" ")
    }

    @Test("the set-up line installs every package .ci/run installs", arguments: [
        ("README.md", "## Set up"),
        ("CONTRIBUTING.md", "## Building"),
    ])
    func theSetUpLineInstallsWhatCIInstalls(document: String, heading: String) throws {
        let lines = try Self.installed(in: document, under: heading)
        #expect(!lines.isEmpty, "no apt-get install under \(heading) in \(document)")
        for packages in lines {
            #expect(packages == (try Self.ciPackages()), "\(document) \(heading): apt-get install \(packages.joined(separator: " "))")
        }
    }

    @Test func ciInstallsFromThePackageList() throws {
        let script = try ExampleTests.repository.appendingPathComponent(".ci/run").read()
        #expect(script.contains("done < .ci/packages"), "the packages .ci/run installs are those of .ci/packages")
    }
}
