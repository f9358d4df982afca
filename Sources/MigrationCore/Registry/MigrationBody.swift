/// The work a migration or hook does. It may throw to fail the run.
///
/// ```swift
/// let body: MigrationBody = { context in context.log("nothing to do") }
/// ```
public typealias MigrationBody = @Sendable (MigrationContext) throws -> Void

/// Asynchronous work for a migration or hook: it may await (a SwiftData or Core Data context,
/// file coordination, the network) and may be `@MainActor`, in which case the run hops to the
/// main actor for it alone. It may throw to fail the run; `CancellationError` is not recorded.
///
/// ```swift
/// let body: AsyncMigrationBody = { @MainActor context in try await importNotes(into: modelContext) }
/// ```
public typealias AsyncMigrationBody = @Sendable (MigrationContext) async throws -> Void

/// A declared body, synchronous or asynchronous: both kinds live in one registry and run under
/// the same rules.
///
/// ```swift
/// if registry.migrations.contains(where: \.body.isAsync) { /* run it with `try await runner.run(store:)` */ }
/// ```
public enum MigrationWork: Sendable {
    /// A synchronous body: any run can run it.
    case sync(MigrationBody)
    /// An asynchronous body: only an asynchronous run runs it.
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
