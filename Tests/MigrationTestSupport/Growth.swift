/// How many times longer `work` takes on an input `factor` times larger: the fastest of
/// `rounds` runs at each size, the larger divided by the smaller. Work linear in the size grows
/// about `factor` times, quadratic work about `factor²` times.
///
/// ```swift
/// let ratio = growth(from: 1_000) { count in _ = (0..<count).sorted() }
/// #expect(ratio < 24)   // 8 times the input: linear is about 8, quadratic about 64
/// ```
public func growth(from size: Int, factor: Int = 8, rounds: Int = 3, _ work: (Int) throws -> Void) rethrows -> Double {
    func fastest(_ size: Int) throws -> Double {
        var times: [Double] = []
        for _ in 0..<rounds {
            let start = ContinuousClock.now
            try work(size)
            let (seconds, attoseconds) = (ContinuousClock.now - start).components
            times.append(Double(seconds) + Double(attoseconds) / 1e18)
        }
        return times.min() ?? 0
    }
    let small = try fastest(size)
    let large = try fastest(size * factor)
    return large / max(small, 1e-9)
}
