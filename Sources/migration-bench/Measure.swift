/// Times `body` `repetitions` times and returns the median, in seconds.
func median(repetitions: Int = 7, _ body: () -> Void) -> Double {
    let clock = ContinuousClock()
    var samples: [Double] = []
    for _ in 0..<repetitions {
        let elapsed = clock.measure(body)
        let (seconds, attoseconds) = elapsed.components
        samples.append(Double(seconds) + Double(attoseconds) / 1e18)
    }
    return samples.sorted()[samples.count / 2]
}

/// Keeps the optimiser from dropping work whose result is otherwise unused.
@inline(never)
func blackHole<T>(_ value: T) {}

func formatted(_ seconds: Double) -> String {
    switch seconds {
    case ..<1e-6: String(format: "%.1f ns", seconds * 1e9)
    case ..<1e-3: String(format: "%.2f µs", seconds * 1e6)
    default: String(format: "%.2f ms", seconds * 1e3)
    }
}
