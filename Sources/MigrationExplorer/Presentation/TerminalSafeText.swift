/// Text on its way to a terminal or a plain-text report. What the tool did not write itself
/// (a title, What's New, a command's output, a manifest key, a path, a server's message) may
/// hold characters a terminal acts on instead of drawing: an escape sequence that retitles the
/// window, clears the screen, writes the clipboard (OSC 52) or resets the terminal, a C1
/// control that some terminals take as one, a bidirectional override that shows text in
/// another order than it is. Every such character is shown as U+FFFD instead.
extension Unicode.Scalar {
    /// Whether a terminal acts on the scalar rather than draws it: a C0 or C1 control, DEL, or
    /// a bidirectional embedding, override or isolate (U+202A–U+202E, U+2066–U+2069).
    var actsOnTerminal: Bool {
        value < 0x20 || (0x7F..<0xA0).contains(value) || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }
}

/// The escape sequences the command line writes itself, and the only ones it lets through.
enum TerminalSequences {
    /// Back to the line's start and erase it: the live status line redrawn in place.
    static let eraseLine = "\r\u{1B}[2K"

    /// Select graphic rendition `code` (`"32"`: green); `"0"` ends a style.
    static func style(_ code: String) -> String { "\u{1B}[\(code)m" }

    /// Every sequence the tool writes: its styles and the live line's erase.
    static let own: [String.UnicodeScalarView] = ([eraseLine] + ConsoleStyle.codes.values.map(style) + [style("0")]).map(\.unicodeScalars)
}

extension StringProtocol {
    /// The text as it may be written to a terminal or a plain-text report: line breaks and
    /// tabs stay, and, with `keepingOwnSequences` (a terminal the tool styles), the tool's own
    /// ``TerminalSequences``; every other character a terminal would act on is U+FFFD.
    /// Everything the command line writes as text passes through here
    /// (``StandardStreams/write(_:to:)``); text the tool did not write is also made
    /// ``drawable`` where it is put together, so that it cannot borrow the tool's own styles
    /// either. JSON is escaped instead (``jsonEscapingTerminalControls``).
    ///
    /// ```swift
    /// "\u{1B}[32mapplied\u{1B}[0m \u{1B}]0;pwned\u{07}".terminalSafe(keepingOwnSequences: true)
    /// // "\u{1B}[32mapplied\u{1B}[0m �]0;pwned�"
    /// ```
    func terminalSafe(keepingOwnSequences: Bool) -> String {
        let scalars = unicodeScalars
        guard scalars.contains(where: { $0.actsOnTerminal && $0 != "\n" && $0 != "\t" }) else { return String(self) }
        var safe = String.UnicodeScalarView()
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if keepingOwnSequences, scalar == "\u{1B}" || scalar == "\r",
               let own = TerminalSequences.own.first(where: { scalars[index...].starts(with: $0) }) {
                safe.append(contentsOf: own)
                index = scalars.index(index, offsetBy: own.count)
                continue
            }
            safe.append(scalar == "\n" || scalar == "\t" || !scalar.actsOnTerminal ? scalar : "\u{FFFD}")
            index = scalars.index(after: index)
        }
        return String(safe)
    }

    /// JSON text with every character a terminal would act on that JSON leaves raw (DEL, C1
    /// controls, bidirectional overrides) written as a `\uXXXX` escape: the same document, which
    /// a reader decodes to the same strings, but harmless when shown. Outside strings JSON holds
    /// none of them, so the whole document can be passed.
    ///
    /// ```swift
    /// #"{"title":"a\#u{202E}b"}"#.jsonEscapingTerminalControls   // {"title":"a\u202eb"}
    /// ```
    var jsonEscapingTerminalControls: String {
        // JSON escapes every control below U+0020 in its strings: one left raw is whitespace
        // between values, and stays.
        func escapes(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 0x7F && scalar.actsOnTerminal }
        let scalars = unicodeScalars
        guard scalars.contains(where: escapes) else { return String(self) }
        var escaped = ""
        for scalar in scalars {
            if escapes(scalar) {
                let hex = String(scalar.value, radix: 16)
                escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}
