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
    /// The numeric components with trailing zeros removed (`1.2.0` → `[1, 2]`).
    public let components: [UInt64]
    /// The version as it was written, without surrounding whitespace.
    public let text: String

    /// Parses a version such as `"1.10.2"`.
    ///
    /// - Throws: ``VersionError`` naming the input when it is empty, has an empty component
    ///   (`1..2`), a character other than digits and dots (`1.0-beta`, `v2`), or a component
    ///   too large for 64 bits.
    public init(_ input: String) throws(VersionError) {
        let trimmed = input.trimmingWhitespace()
        guard !trimmed.isEmpty else { throw VersionError(input: input, reason: .empty) }
        var parts: [UInt64] = []
        var current: UInt64 = 0
        var digitsInCurrent = 0
        for byte in trimmed.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let (times10, overflowA) = current.multipliedReportingOverflow(by: 10)
                let (sum, overflowB) = times10.addingReportingOverflow(UInt64(byte - UInt8(ascii: "0")))
                guard !overflowA, !overflowB else {
                    throw VersionError(input: input, reason: .componentTooLarge)
                }
                current = sum
                digitsInCurrent += 1
            case UInt8(ascii: "."):
                guard digitsInCurrent > 0 else { throw VersionError(input: input, reason: .emptyComponent) }
                parts.append(current)
                current = 0
                digitsInCurrent = 0
            default:
                let offender = trimmed.first { !("0"..."9").contains($0) && $0 != "." } ?? Character(Unicode.Scalar(byte))
                throw VersionError(input: input, reason: .invalidCharacter(offender))
            }
        }
        guard digitsInCurrent > 0 else { throw VersionError(input: input, reason: .emptyComponent) }
        parts.append(current)
        while parts.count > 1, parts.last == 0 { parts.removeLast() }
        components = parts
        text = trimmed
    }

    public var description: String { text }

    public static func == (lhs: Version, rhs: Version) -> Bool { lhs.components == rhs.components }

    public func hash(into hasher: inout Hasher) { hasher.combine(components) }

    public static func < (lhs: Version, rhs: Version) -> Bool {
        for (left, right) in zip(lhs.components, rhs.components) where left != right {
            return left < right
        }
        return lhs.components.count < rhs.components.count
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
