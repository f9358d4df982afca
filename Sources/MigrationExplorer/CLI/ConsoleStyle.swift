import Foundation

/// How the command line writes: ANSI colours on a terminal (unless `NO_COLOR` is set), UTF-8
/// glyphs in a UTF-8 locale, plain text otherwise.
struct ConsoleStyle: Sendable {
    let color: Bool
    let glyphs: Glyphs

    static func forStandardOutput(environment: [String: String] = ProcessInfo.processInfo.environment) -> ConsoleStyle {
        let terminal = isatty(STDOUT_FILENO) == 1 && environment["TERM"].map { $0 != "dumb" } ?? false
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        return ConsoleStyle(color: terminal && !noColor, glyphs: Glyphs(unicode: localeIsUTF8(environment)))
    }

    /// `text` in `role`'s colour; its own control characters are made harmless (``StringProtocol/drawable``).
    func paint(_ text: String, _ role: StyleRole) -> String {
        let text = text.drawable
        guard color, let code = Self.codes[role] else { return text }
        return TerminalSequences.style(code) + text + TerminalSequences.style("0")
    }

    static let codes: [StyleRole: String] = [
        .title: "1", .dim: "2", .applied: "32", .pending: "33", .failed: "31;1", .skipped: "2",
        .hook: "36", .warning: "33", .accent: "1",
    ]
}

/// Whether the locale the environment names uses UTF-8 (`LC_ALL`, then `LC_CTYPE`, then `LANG`).
func localeIsUTF8(_ environment: [String: String]) -> Bool {
    let locale = ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? ""
    let lowered = locale.lowercased()
    return lowered.contains("utf-8") || lowered.contains("utf8")
}
