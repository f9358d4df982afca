import Foundation
import Logging
import MigrationCore
import PostgresNIO

/// Listens, on a connection of its own, for the changes ``PostgresMigrationStore``s commit to
/// a schema (records of a run, a reset, a set, from any process on any machine), and reports
/// each as an element of an `AsyncStream`, with the connection's fate: lost (the server
/// restarted, the network cut), then listening again, with a growing pause between attempts.
/// A loop subscribes by iterating ``events()`` and stops by cancelling its task, which closes
/// the connection. Nothing polls: with nothing committed, the connection is silent.
///
/// ```swift
/// let listener = PostgresChangeListener(server: try PostgresServer(url: "postgres://deploy@db.internal/notes"))
/// for await event in listener.events() {
///     if case .changed(let notice) = event { print("\(notice.kind) by \(notice.host):\(notice.pid)") }
/// }
/// ```
public struct PostgresChangeListener: Sendable {
    public let server: PostgresServer
    /// The channel listened on, derived from the store's schema (see
    /// ``PostgresChangeNotice/channel(forSchema:)``).
    public let channel: String
    /// The pause before the first attempt to connect again; it doubles with each failed one.
    public let firstRetry: Duration
    /// The longest pause between two attempts.
    public let longestRetry: Duration

    public init(server: PostgresServer, schema: PostgresSchemaName = .default,
                firstRetry: Duration = .milliseconds(250), longestRetry: Duration = .seconds(10)) {
        self.server = server
        self.channel = PostgresChangeNotice.channel(forSchema: schema.name)
        self.firstRetry = firstRetry
        self.longestRetry = longestRetry
    }

    /// Connects and listens until the subscribing task is cancelled, connecting again
    /// whenever the connection is lost. The first element says whether it listens, or why not.
    public func events() -> AsyncStream<PostgresChangeEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: PostgresChangeEvent.self, bufferingPolicy: .bufferingNewest(256))
        let following = Task {
            await follow(into: continuation)
            continuation.finish()
        }
        continuation.onTermination = { _ in following.cancel() }
        return stream
    }

    private func follow(into continuation: AsyncStream<PostgresChangeEvent>.Continuation) async {
        let logger = Logger(label: "MigrationPostgres", factory: { _ in SwiftLogNoOpLogHandler() })
        let applicationName = PostgresLockHolder.applicationName(since: nil)
        var pause = firstRetry
        var listenedBefore = false
        while !Task.isCancelled {
            let reason: String
            do {
                // Connecting waits with a thread: one of its own, not the concurrency pool's.
                let connection = try await OwnThread.preferred { try server.openConnection(applicationName: applicationName, logger: logger) }
                defer { connection.close().whenComplete { _ in withExtendedLifetime(connection) {} } }
                try await connection.listen(on: channel) { notifications in
                    continuation.yield(.listening(again: listenedBefore))
                    listenedBefore = true
                    pause = firstRetry
                    for try await notification in notifications {
                        continuation.yield(PostgresChangeEvent(payload: notification.payload))
                    }
                }
                reason = "the server closed it"
            } catch let error as PostgresConnectionError {
                reason = error.description
            } catch {
                reason = PostgresConnectionError(lost: error, server: server)?.description ?? "\(error)"
            }
            if Task.isCancelled { return }
            continuation.yield(.lost(reason: reason, retryingIn: pause))
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, longestRetry)
        }
    }
}

/// What a ``PostgresChangeListener`` reports.
///
/// ```swift
/// switch event {
/// case .listening(let again): print(again ? "listening again" : "listening")
/// case .changed(let notice): print("\(notice.kind) by \(notice.host):\(notice.pid)")
/// case .unreadable: print("a notification no store sent")
/// case .lost(let reason, let retryingIn): print("\(reason); trying again in \(retryingIn)")
/// }
/// ```
public enum PostgresChangeEvent: Sendable, Equatable {
    /// The listener is connected and listening; `again` after a connection was lost.
    case listening(again: Bool)
    /// A store committed a change.
    case changed(PostgresChangeNotice)
    /// A notification on the channel that no store of this package sent, its payload as sent
    /// (text another program wrote: sanitise it before showing it).
    case unreadable(payload: String)
    /// The connection was lost, or could not be opened, as `reason` says ("the connection to
    /// the server was lost …", "cannot connect to PostgreSQL at …", its password never shown);
    /// the next attempt is in `retryingIn`.
    case lost(reason: String, retryingIn: Duration)

    init(payload: String) {
        if let notice = try? PostgresChangeNotice(payload: payload) {
            self = .changed(notice)
        } else {
            self = .unreadable(payload: String(payload.prefix(200)))
        }
    }
}
