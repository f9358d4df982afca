import MigrationCore

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
        /// The field's path in the manifest, as `migrations[2].title`, or `file`.
        public let field: String
        /// What is wrong with it, and what to do.
        public let message: String
        /// The field and the message: `migrations[2].title: is missing`.
        public var description: String { "\(field): \(message)" }
    }

    /// The manifest file.
    public let path: String
    /// Every problem found, in the manifest's order.
    public let problems: [Problem]

    /// The file, the number of problems, then one indented line per problem.
    public var description: String {
        let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
        return (["\(path): \(count)"] + problems.map { "  \($0)" }).joined(separator: "\n")
    }
}
