/// Why a string is not a ``Version``.
///
/// ```swift
/// do { _ = try Version("1.0-beta") } catch { print(error) }
/// // "1.0-beta" is not a version: "-" is not allowed; use dot-separated numbers such as 1.2.3
/// ```
public struct VersionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the input.
    public enum Reason: Sendable, Equatable {
        /// Nothing but whitespace.
        case empty
        /// Two dots in a row, or a dot at either end (`1..2`, `.1`).
        case emptyComponent
        /// A character other than digits and dots (`-` in `1.0-beta`).
        case invalidCharacter(Character)
        /// A component too large for 64 bits.
        case componentTooLarge
    }

    /// The string exactly as it was given.
    public let input: String
    /// What is wrong with it.
    public let reason: Reason

    /// The input, what is wrong, and what a version looks like.
    public var description: String {
        let quoted = input.quotedValue
        switch reason {
        case .empty:
            return "\(quoted) is not a version: it is empty; use dot-separated numbers such as 1.2.3"
        case .emptyComponent:
            return "\(quoted) is not a version: it has an empty component; use dot-separated numbers such as 1.2.3"
        case .invalidCharacter(let character):
            return "\(quoted) is not a version: \"\(character)\" is not allowed; use dot-separated numbers such as 1.2.3"
        case .componentTooLarge:
            return "\(quoted) is not a version: a component is larger than \(UInt64.max)"
        }
    }
}
