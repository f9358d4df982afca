import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How long a test waits for what must come before it calls it a hang, in seconds: long,
/// because a 2-core machine running other work beside the suite can be a minute slow; never a
/// measure of speed (how fast is `migration-bench`'s). Two CPU-bound processes beside the suite
/// once took a tmux pane and a manifest's command past 30 s.
public let hangDeadline: Double = 120

/// Waits up to `timeout` seconds for `condition`, blocking the calling thread and checking every
/// 10 ms; returns whether it held. Only for code that runs on a thread of its own (a store's
/// body in a race): a test's body awaits ``waitUntil(timeout:_:)``, which holds no thread. The
/// deadline is on the monotonic clock, so a change of the system's time neither cuts a wait
/// short nor stretches it.
///
/// ```swift
/// registry.migrate(toVersion: "1.0") { _ in _ = blockingWaitUntil { released.value } }
/// ```
public func blockingWaitUntil(timeout: Double = hangDeadline, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = ContinuousClock.now + .seconds(timeout)
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        usleep(10_000)
    }
    return try condition()
}

/// Waits up to `timeout` seconds for `condition`, checking every 10 ms and sleeping between
/// checks, so that no thread the code under test may need is held; returns whether it held.
/// Only for what sends no event (a file another process writes, a screen): a test waits for an
/// event where there is one.
///
/// ```swift
/// #expect(await waitUntil { FileManager.default.fileExists(atPath: marker) })
/// ```
public func waitUntil(timeout: Double = hangDeadline, _ condition: () throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + .seconds(timeout)
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        try? await Task.sleep(for: .milliseconds(10))
    }
    return try condition()
}
