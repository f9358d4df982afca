/// The work a migration or hook does. It may throw to fail the run.
public typealias MigrationBody = @Sendable (MigrationContext) throws -> Void

/// Asynchronous work for a migration or hook: it may await (a SwiftData or Core Data context,
/// file coordination, the network) and may be `@MainActor`, in which case the run hops to the
/// main actor for it alone. It may throw to fail the run; `CancellationError` is not recorded.
public typealias AsyncMigrationBody = @Sendable (MigrationContext) async throws -> Void

/// A declared body, synchronous or asynchronous: both kinds live in one registry and run under
/// the same rules.
public enum MigrationWork: Sendable {
    case sync(MigrationBody)
    case async(AsyncMigrationBody)

    /// Whether only an asynchronous run (`try await runner.run(store:)`) can run it.
    public var isAsync: Bool {
        if case .async = self { return true }
        return false
    }

    /// Runs it from an asynchronous run: a synchronous body is called in place.
    func run(_ context: MigrationContext) async throws {
        switch self {
        case .sync(let body): try body(context)
        case .async(let body): try await body(context)
        }
    }
}
