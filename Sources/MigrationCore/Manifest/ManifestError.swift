/// Everything wrong with a manifest, found in one pass, each with the field path and value.
///
/// ```
/// notes.json: 2 problems
///   migrations[1].version: "1.0-beta" is not a version: "-" is not allowed; …
///   migrations[2]: has both "version" and "build"; give exactly one
/// ```
public struct ManifestError: Error, CustomStringConvertible, Equatable, Sendable {
    /// One problem: where (`migrations[2].title`) and what.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        public let field: String
        public let message: String
        public var description: String { "\(field): \(message)" }
    }

    /// The manifest file.
    public let path: String
    public let problems: [Problem]

    public var description: String {
        let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
        return (["\(path): \(count)"] + problems.map { "  \($0)" }).joined(separator: "\n")
    }
}
