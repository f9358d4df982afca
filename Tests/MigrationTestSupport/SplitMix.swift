/// A small deterministic generator, so a failure can be replayed from its seed.
///
/// ```swift
/// var random = SplitMix(state: 42)
/// let version = random.version()   // "3.11", the same for every run with seed 42
/// ```
public struct SplitMix: RandomNumberGenerator, Sendable {
    /// The generator's state: the seed, then advanced by every number drawn.
    public var state: UInt64

    /// A generator starting at `state`.
    public init(state: UInt64) {
        self.state = state
    }

    /// The next number.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A version of one to three components from 0 to 11, as text: `"7"`, `"0.11"`, `"3.2.10"`.
    public mutating func version() -> String {
        (0..<Int.random(in: 1...3, using: &self)).map { _ in String(Int.random(in: 0...11, using: &self)) }
            .joined(separator: ".")
    }
}
