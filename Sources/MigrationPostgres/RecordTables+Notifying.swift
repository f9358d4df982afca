import Foundation
import MigrationCore
import PostgresNIO

extension RecordTables {
    /// Sends a ``PostgresChangeNotice`` on the schema's channel, in the transaction that wrote
    /// `state` with `appended` records: PostgreSQL delivers it when that transaction commits,
    /// and never when it rolls back.
    func notify(_ state: MigrationState, appended: ArraySlice<MigrationRecord>, in session: PostgresSession) throws {
        let migrations = appended.filter { [.versionMigration, .buildMigration].contains($0.subject) && $0.outcome != .failed }
        let ran = appended.contains { $0.subject != .reset }
        let kind: PostgresChangeNotice.Kind = ran ? .record : state.hasNoMarks ? .reset : .set
        let notice = PostgresChangeNotice(schema: schema, domain: domain, kind: kind, versions: migrations.compactMap(\.identifier),
                                          lastMigratedVersion: state.lastMigratedVersion, host: ProcessInfo.processInfo.hostName, pid: getpid())
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(PostgresChangeNotice.channel(forSchema: schema))
        bindings.append(notice.payload)
        try session.query(PostgresQuery(unsafeSQL: "SELECT pg_notify($1, $2)", binds: bindings))
    }
}
