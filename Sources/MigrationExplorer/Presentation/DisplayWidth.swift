extension Character {
    /// How many terminal cells the character takes: 2 for East Asian wide and fullwidth
    /// characters and emoji shown as emoji, 1 otherwise.
    var displayWidth: Int {
        guard let scalar = unicodeScalars.first, scalar.value >= 0x1100 else { return 1 }
        if scalar.properties.isEmojiPresentation { return 2 }
        return Self.wideRanges.contains { $0.contains(scalar.value) } ? 2 : 1
    }

    /// The East Asian Wide (W) and Fullwidth (F) blocks of Unicode's EastAsianWidth.txt, in
    /// broad ranges.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
        0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
        0xFFE0...0xFFE6, 0x20000...0x2FFFD, 0x30000...0x3FFFD,
    ]
}

extension StringProtocol {
    /// Terminal cells the text takes.
    var displayWidth: Int { reduce(0) { $0 + $1.displayWidth } }
}
