import MigrationCore
import Testing

/// Runs each test of a suite on a thread of its own rather than on the concurrency pool (its
/// task prefers that thread): for tests that wait with a thread (threads released at once and
/// joined, a semaphore, a blocking store call). On the pool, such a wait takes one of its few
/// threads (two on a 2-core machine) from every other test and from the code under test, which
/// then waits for it.
///
/// ```swift
/// @Suite(.onThreadOfItsOwn) struct RaceTests { … }
/// ```
public struct OnThreadOfItsOwn: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        guard testCase != nil, #available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *) else { return try await function() }
        let executor = ThreadExecutor(name: "a test", mayWait: false)
        defer { executor.finish() }
        try await withTaskExecutorPreference(executor) { try await function() }
    }
}

extension Trait where Self == OnThreadOfItsOwn {
    /// See ``OnThreadOfItsOwn``.
    public static var onThreadOfItsOwn: Self { OnThreadOfItsOwn() }
}
