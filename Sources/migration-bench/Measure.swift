/// Times `body` `repetitions` times and returns the median, in seconds.
func median(repetitions: Int = 7, _ body: () -> Void) -> Double {
    let clock = ContinuousClock()
    var samples: [Double] = []
    for _ in 0..<repetitions {
        samples.append(seconds(clock.measure(body)))
    }
    return samples.sorted()[samples.count / 2]
}

/// `duration` in seconds.
func seconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) + Double(attoseconds) / 1e18
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
