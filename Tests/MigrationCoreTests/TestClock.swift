@testable import MigrationCore

/// A clock that moves only when a test advances it, so budgets are tested without sleeping.
final class TestClock: Clock, Sendable {
    struct Instant: InstantProtocol {
        let offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (left: Instant, right: Instant) -> Bool { left.offset < right.offset }
    }

    private let current = Locked(Instant(offset: .zero))
    var now: Instant { current.withLock { $0 } }
    var minimumResolution: Duration { .zero }

    func advance(by duration: Duration) {
        current.withLock { $0 = $0.advanced(by: duration) }
    }

    /// Nothing in these tests sleeps on it: a sleep is a mistake, and fails loudly.
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        preconditionFailure("TestClock does not sleep; advance it instead")
    }
}
