/// A version number made of dot-separated non-negative integers, compared numerically.
///
/// Leading zeros and trailing zero components are insignificant, so `1.0 == 1.0.0`,
/// `1.01 == 1.1` and `1.10 > 1.9`. The text is kept as written (trimmed) for display.
///
/// ```swift
/// let old = try Version("1.9")
/// let new = try Version(" 1.10 ")
/// assert(new > old)
/// assert(try Version("1.0") == Version("1.0.0"))
/// ```
public struct Version: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The version as it was written, without surrounding whitespace.
    public let text: String
    // The first four components inline (zero-filled) and any further ones in `tail`, with
    // trailing zeros removed: parsing and comparing the usual versions allocate nothing.
    let head: (UInt64, UInt64, UInt64, UInt64)
    let tail: [UInt64]

    /// Parses a version such as `"1.10.2"`; surrounding whitespace is trimmed.
    ///
    /// ```swift
    /// let version = try Version("1.10.2")
    /// version.components   // [1, 10, 2]
    /// ```
    ///
    /// - Throws: ``VersionError`` naming the input when it is empty, has an empty component
    ///   (`1..2`), a character other than digits and dots (`1.0-beta`, `v2`), or a component
    ///   too large for 64 bits.
    public init(_ input: String) throws(VersionError) {
        let trimmed = input.trimmingWhitespace()
        var head: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var tail: [UInt64] = []
        var index = 0
        var current: UInt64 = 0
        var digits = 0
        func store(_ value: UInt64) {
            switch index {
            case 0: head.0 = value
            case 1: head.1 = value
            case 2: head.2 = value
            case 3: head.3 = value
            default: tail.append(value)
            }
            index += 1
        }
        guard !trimmed.isEmpty else { throw VersionError(input: input, reason: .empty) }
        for byte in trimmed.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let (times10, overflowA) = current.multipliedReportingOverflow(by: 10)
                let (sum, overflowB) = times10.addingReportingOverflow(UInt64(byte &- UInt8(ascii: "0")))
                guard !overflowA, !overflowB else { throw VersionError(input: input, reason: .componentTooLarge) }
                current = sum
                digits += 1
            case UInt8(ascii: "."):
                guard digits > 0 else { throw VersionError(input: input, reason: .emptyComponent) }
                store(current)
                current = 0
                digits = 0
            default:
                let offender = trimmed.first { !("0"..."9").contains($0) && $0 != "." } ?? "?"
                throw VersionError(input: input, reason: .invalidCharacter(offender))
            }
        }
        guard digits > 0 else { throw VersionError(input: input, reason: .emptyComponent) }
        store(current)
        while tail.last == 0 { tail.removeLast() }
        self.text = trimmed
        self.head = head
        self.tail = tail
    }

    /// The version made of the leading dot-separated numbers of `text`, or `nil` when it does
    /// not start with a digit: how a recorded mark that another library wrote loosely is read.
    ///
    /// ```swift
    /// Version(leadingComponentsOf: "2.0b")?.text          // "2.0"
    /// Version(leadingComponentsOf: "1.4 (18)")?.text      // "1.4"
    /// Version(leadingComponentsOf: "2.0.0-beta.1")?.text  // "2.0.0"
    /// ```
    public init?(leadingComponentsOf text: String) {
        let trimmed = text.trimmingWhitespace()
        let utf8 = trimmed.utf8
        var end = utf8.startIndex
        var index = utf8.startIndex
        var afterDigit = false
        while index < utf8.endIndex {
            let byte = utf8[index]
            if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                afterDigit = true
                end = utf8.index(after: index)
            } else if byte != UInt8(ascii: ".") || !afterDigit {
                break
            } else {
                afterDigit = false
            }
            index = utf8.index(after: index)
        }
        guard end > utf8.startIndex, let parsed = try? Version(String(trimmed[..<end])) else { return nil }
        self = parsed
    }

    /// The numeric components with trailing zeros removed (`1.2.0` → `[1, 2]`).
    public var components: [UInt64] {
        var all = [head.0, head.1, head.2, head.3] + tail
        while all.count > 1, all.last == 0 { all.removeLast() }
        return all
    }

    /// The version as written (``text``).
    public var description: String { text }

    /// Equal when the components are, trailing zeros aside: `1.0 == 1.0.0`, `1.01 == 1.1`.
    public static func == (lhs: Version, rhs: Version) -> Bool {
        lhs.head == rhs.head && lhs.tail == rhs.tail
    }

    /// Hashes the components, so that equal versions written differently hash alike.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(head.0)
        hasher.combine(head.1)
        hasher.combine(head.2)
        hasher.combine(head.3)
        hasher.combine(tail)
    }

    /// Compares component by component, numerically: `1.9 < 1.10`.
    public static func < (lhs: Version, rhs: Version) -> Bool {
        if lhs.head != rhs.head { return lhs.head < rhs.head }
        return lhs.tail.lexicographicallyPrecedes(rhs.tail)
    }
}

extension String {
    /// The string without leading and trailing whitespace; itself (no copy) when it has none.
    func trimmingWhitespace() -> String {
        let visible: ClosedRange<UInt8> = 0x21...0x7E
        if let first = utf8.first, let last = utf8.last, visible.contains(first), visible.contains(last) { return self }
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
