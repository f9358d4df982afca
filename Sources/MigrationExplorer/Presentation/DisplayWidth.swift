extension Unicode.Scalar {
    /// Terminal cells the scalar takes on its own: 0 for combining marks, joiners and
    /// variation selectors, 2 for East Asian wide and fullwidth characters and emoji shown as
    /// emoji, 1 otherwise.
    var displayWidth: Int {
        guard value >= 0x300 else { return 1 }
        if value >= 0x1100, Self.wideRanges.contains(where: { $0.contains(value) }) { return 2 }
        let properties = properties
        switch properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: return value >= 0x1100 && properties.isEmojiPresentation ? 2 : 1
        }
    }

    /// The East Asian Wide (W) and Fullwidth (F) blocks of Unicode's EastAsianWidth.txt, in
    /// broad ranges.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
        0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
        0xFFE0...0xFFE6, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}

extension Character {
    /// The most scalars one terminal cell holds (ncurses' `CCHARW_MAX`); a longer sequence
    /// (a family emoji) is drawn as its parts.
    static let scalarsPerCell = 5

    /// How many terminal cells the character (a grapheme cluster) takes, as terminals draw
    /// it: its first scalar's width, so a letter with combining accents takes one cell and
    /// an emoji sequence (skin tone, ZWJ, flag) two; a sequence too long for one cell takes
    /// the cells of its parts.
    var displayWidth: Int {
        if asciiValue != nil { return 1 }
        let scalars = unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.count <= Self.scalarsPerCell { return max(1, first.displayWidth) }
        return max(1, scalars.reduce(0) { $0 + $1.displayWidth })
    }

    /// The character, or U+FFFD when it holds a character a terminal would act on rather than
    /// draw (``Unicode/Scalar/actsOnTerminal``; a tab is a space).
    var drawable: Character {
        if let ascii = asciiValue {
            return ascii == 0x09 ? " " : (ascii < 0x20 || ascii == 0x7F ? "\u{FFFD}" : self)
        }
        return unicodeScalars.contains(where: \.actsOnTerminal) ? "\u{FFFD}" : self
    }
}

extension StringProtocol {
    /// Terminal cells the text takes.
    var displayWidth: Int { reduce(0) { $0 + $1.displayWidth } }

    /// One line of text with every character a terminal would act on (an escape sequence, a
    /// bidirectional override, a newline that breaks a table row) as U+FFFD, each tab a space:
    /// declared text, a title or an error, can then neither clear the screen, retitle the
    /// window nor reorder what is shown.
    var drawable: String {
        unicodeScalars.contains(where: \.actsOnTerminal) ? String(map(\.drawable)) : String(self)
    }
}
