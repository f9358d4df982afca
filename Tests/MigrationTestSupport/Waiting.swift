import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Waits up to `timeout` seconds for `condition`, checking every 10 ms; returns whether it held.
/// The deadline is on the monotonic clock, so a change of the system's time neither cuts a wait
/// short nor stretches it.
///
/// ```swift
/// #expect(waitUntil { FileManager.default.fileExists(atPath: marker) })
/// ```
public func waitUntil(timeout: Double = 30, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = ContinuousClock.now + .seconds(timeout)
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        usleep(10_000)
    }
    return try condition()
}

/// ``waitUntil(timeout:_:)`` for async tests: sleeps between checks instead of blocking a thread
/// the task under test may need.
public func waitUntil(timeout: Double = 30, _ condition: () throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + .seconds(timeout)
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return try condition()
}
