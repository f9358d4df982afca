import MigrationCore

/// What the "from" and "to" prompts take: a version and, in parentheses, a build (`0.8 (90)`),
/// a version alone, or nothing (for "from", a fresh install).
///
/// ```swift
/// let device = try DeviceInput("0.8 (90)")   // version 0.8, build 90
/// ```
struct DeviceInput: Equatable {
    /// `nil` for a fresh install.
    let version: Version?
    let build: Version?

    /// - Throws: a message naming what is wrong, for the prompt to show.
    init(_ text: String) throws(PromptError) {
        let text = text.trimmingWhitespaceForPrompt()
        guard let open = text.firstIndex(of: "(") else {
            version = try text.isEmpty ? nil : PromptError.version(text)
            build = nil
            return
        }
        guard text.hasSuffix(")") else {
            throw PromptError("write the build in parentheses after the version, as 0.8 (90)")
        }
        let build = String(text[text.index(after: open)..<text.index(before: text.endIndex)]).trimmingWhitespaceForPrompt()
        let version = String(text[..<open]).trimmingWhitespaceForPrompt()
        guard !version.isEmpty else { throw PromptError("a build needs the version before it, as 0.8 (90)") }
        guard !build.isEmpty else { throw PromptError("the build in parentheses is empty") }
        self.version = try PromptError.version(version)
        self.build = try PromptError.version(build)
    }

    /// The prompt's text for a device that last migrated at `version` and `build`.
    static func text(version: String?, build: String?) -> String {
        guard let version else { return "" }
        return build.map { "\(version) (\($0))" } ?? version
    }
}

/// Why a prompt's text was refused.
struct PromptError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }

    /// The version `text` is; refused with `Version`'s own reason when it is not one.
    static func version(_ text: String) throws(PromptError) -> Version {
        do { return try Version(text) } catch { throw PromptError(error.description) }
    }
}

extension String {
    func trimmingWhitespaceForPrompt() -> String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
