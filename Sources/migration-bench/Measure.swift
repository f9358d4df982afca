import CHeapUsage
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Times `body` `repetitions` times and returns the median, in seconds.
func median(repetitions: Int = 7, _ body: () -> Void) -> Double {
    samples(repetitions: repetitions, body).sorted()[repetitions / 2]
}

/// Times `body` `repetitions` times and returns the fastest, in seconds.
func best(repetitions: Int = 5, _ body: () -> Void) -> Double {
    samples(repetitions: repetitions, body).min()!
}

/// Times each side once a round, alternating, and returns each side's median: both sides
/// see the same machine load.
func alternating(rounds: Int = 9, _ sides: [() -> Void]) -> [Double] {
    var times = Array(repeating: [Double](), count: sides.count)
    for _ in 0..<rounds {
        for (index, side) in sides.enumerated() { times[index].append(seconds(ContinuousClock().measure(side))) }
    }
    return times.map { $0.sorted()[rounds / 2] }
}

private func samples(repetitions: Int, _ body: () -> Void) -> [Double] {
    (0..<repetitions).map { _ in seconds(ContinuousClock().measure(body)) }
}

func seconds(_ duration: Duration) -> Double {
    let (whole, attoseconds) = duration.components
    return Double(whole) + Double(attoseconds) / 1e18
}

/// Keeps the optimiser from dropping work whose result is otherwise unused.
@inline(never)
func blackHole<T>(_ value: T) {}

func formatted(_ seconds: Double) -> String {
    switch seconds {
    case ..<1e-6: String(format: "%.1f ns", seconds * 1e9)
    case ..<1e-3: String(format: "%.2f µs", seconds * 1e6)
    case ..<1: String(format: "%.1f ms", seconds * 1e3)
    default: String(format: "%.2f s", seconds)
    }
}

/// The bytes the heap holds now (see `heap_usage_bytes_in_use`).
func heapBytes() -> Int {
    Int(heap_usage_bytes_in_use())
}

/// A fresh temporary folder.
func temporaryFolder(_ name: String) -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("migration-bench-\(name)-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
