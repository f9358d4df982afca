#if PostgreSQL
import Foundation
import MigrationCore
import MigrationManifest
import MigrationPostgres

/// A PostgreSQL store is named by its server's URL (without the password). Its locks belong to
/// its connection, whose socket a block's command inherits (and nothing else of it): a command
/// still running when its runner is killed keeps the block's transaction and locks, so the next
/// run, on any machine, waits for it. A command does not get `PGPASSWORD` when that is the
/// store's password. A manifest's `"sql"` runs in the transaction that records its migration,
/// and the runs holding its run lock are named.
extension PostgresMigrationStore: RealStore {
    public var lockDescriptor: Int32? { heldBlockDescriptor }
    public var displayPath: String { server.description }
    public var name: String { server.database }
    /// "PostgreSQL postgres://app@db:5432/notes (default, schema fleet)".
    public var label: StoreLabel {
        StoreLabel(before: "PostgreSQL ", path: displayPath, after: " (\(PostgresBackend.records(domain: domain, schema: schema)))")
    }
    public var secretVariables: [String] {
        let given = ProcessInfo.processInfo.environment["PGPASSWORD"]
        return given != nil && given == server.password ? ["PGPASSWORD"] : []
    }
    public var manifestSQL: ManifestSQL.Runner? { ManifestSQL.inPostgresStore }
    public func recordedDomains() throws -> [String?] { try domains() }
    /// The schema's notifications, heard on a connection of the explorer's own
    /// (`PostgresChangeListener`): another instance's records, reset or `set` of this domain,
    /// by its host and pid; a lost connection and the listening again after it.
    public func changes() throws -> AsyncStream<StoreChange> {
        let domain = self.domain
        return .relaying(PostgresChangeListener(server: server, schema: try PostgresSchemaName(schema)).events()) { event in
            switch event {
            case .changed(let notice): notice.domain == domain ? .changed(writer: "\(notice.host), pid \(notice.pid)") : nil
            case .unreadable: .changed(writer: nil)
            case .lost(let reason, _): .interrupted(reason: reason)
            case .listening(let again): again ? .resumed : nil
            }
        }
    }

    public func runsGoingOn() -> [OngoingRun] {
        ((try? runHolders()) ?? []).sorted { $0.since < $1.since }.map(OngoingRun.init)
    }
}

extension OngoingRun {
    init(_ holder: PostgresLockHolder) {
        self.init(host: holder.host, pid: holder.pid, since: holder.since, description: holder.description)
    }
}
#endif
