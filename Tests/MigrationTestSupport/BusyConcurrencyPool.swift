import Foundation
import MigrationCore

/// Every thread of Swift's concurrency pool, each held by a job that blocks until
/// ``release()``: for tests of code that must go on when the pool is busy (other tests of the
/// process, an app's body that blocks a thread). The pool has one thread per core and starts no
/// more when they block, so a task that needs it waits until the release.
///
/// ```swift
/// let pool = try #require(BusyConcurrencyPool.occupy())
/// defer { pool.release() }
/// // only code that needs no thread of the pool runs now
/// ```
public final class BusyConcurrencyPool: Sendable {
    /// How many threads it holds: one per core.
    public let threads: Int
    private let released = DispatchSemaphore(value: 0)
    private let holding = Locked(0)

    private init(threads: Int) { self.threads = threads }

    /// Blocks the calling thread, which must not be one of the pool's (the main thread, a
    /// thread of its own), until every thread of the pool runs a job that waits; `nil` when
    /// they did not all start within `seconds` (other work held the pool). Each job lets its
    /// thread go after ``release()``, or after `holdAtMost` seconds, so that a test that fails
    /// before releasing does not stall the process for good.
    public static func occupy(within seconds: Double = 60, holdAtMost: Double = 120) -> BusyConcurrencyPool? {
        let pool = BusyConcurrencyPool(threads: ProcessInfo.processInfo.activeProcessorCount)
        let started = DispatchSemaphore(value: 0)
        for _ in 0..<pool.threads {
            Task.detached { [released = pool.released, holding = pool.holding] in
                holding.withLock { $0 += 1 }
                started.signal()
                _ = released.wait(timeout: .now() + holdAtMost)
                holding.withLock { $0 -= 1 }
            }
        }
        for _ in 0..<pool.threads where started.wait(timeout: .now() + seconds) == .timedOut {
            pool.release()
            return nil
        }
        return pool
    }

    /// Whether every thread it took is still held.
    public var isHoldingEveryThread: Bool { holding.value == threads }

    /// Lets every thread go.
    public func release() {
        for _ in 0..<threads { released.signal() }
    }
}
