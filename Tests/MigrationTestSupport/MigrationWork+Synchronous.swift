import MigrationCore

extension MigrationWork {
    /// A test's mistake: an asynchronous body called synchronously.
    public struct NotSynchronous: Error {}

    /// Calls a synchronous body; an asynchronous one is a test's mistake.
    ///
    /// ```swift
    /// try registry.migrations[0].body.callSynchronously(MigrationContext(from: nil, to: "1.0"))
    /// ```
    public func callSynchronously(_ context: MigrationContext) throws {
        guard case .sync(let body) = self else { throw NotSynchronous() }
        try body(context)
    }
}
