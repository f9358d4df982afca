/// Times `body` `repetitions` times and returns the median, in seconds.
func median(repetitions: Int = 7, _ body: () -> Void) -> Double {
    let clock = ContinuousClock()
    var samples: [Double] = []
    for _ in 0..<repetitions { samples.append(seconds(clock.measure(body))) }
    return samples.sorted()[samples.count / 2]
}

/// ``median(repetitions:_:)`` for asynchronous work.
func median(repetitions: Int = 7, _ body: () async -> Void) async -> Double {
    let clock = ContinuousClock()
    var samples: [Double] = []
    for _ in 0..<repetitions {
        let start = clock.now
        await body()
        samples.append(seconds(clock.now - start))
    }
    return samples.sorted()[samples.count / 2]
}

private func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
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
