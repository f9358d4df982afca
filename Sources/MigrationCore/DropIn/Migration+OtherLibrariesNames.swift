/// The names other Swift migration libraries give ``Migration``'s calls, so that code written
/// for them compiles unchanged. Each forwards straight to the shared ``Migrator``.
///
/// ```swift
/// Migration.applicationUpdate { showWhatsNew() }              // MTMigration's Swift pod
/// Migration.migrate(toVersion: "1.1") { normaliseDates() }   // Hengyu's Migration
/// ```
extension Migration {
    /// ``Migrator/applicationUpdateBlock(_:)-4pdk4`` on ``shared``, under the name MTMigration's
    /// Swift pod gives it, so that code written for that pod compiles unchanged.
    ///
    /// ```swift
    /// Migration.applicationUpdate { showWhatsNew() }
    /// ```
    public static func applicationUpdate<E: Error>(_ block: () throws(E) -> Void) throws(E) {
        try shared.applicationUpdateBlock(block)
    }

    /// ``Migrator/buildNumberUpdateBlock(_:)-7tbqy`` on ``shared``, under the name MTMigration's
    /// Swift pod gives it.
    ///
    /// ```swift
    /// Migration.buildNumberUpdate { refreshCaches() }
    /// ```
    public static func buildNumberUpdate<E: Error>(_ block: () throws(E) -> Void) throws(E) {
        try shared.buildNumberUpdateBlock(block)
    }

    /// ``Migrator/migrateToVersion(_:_:)-5m26x`` on ``shared``, under the name Hengyu's Migration
    /// gives it, so that code written for that library compiles unchanged.
    ///
    /// ```swift
    /// Migration.migrate(toVersion: "1.1") { normaliseDates() }
    /// ```
    public static func migrate<E: Error>(toVersion version: String, execution: () throws(E) -> Void) throws(E) {
        try shared.migrateToVersion(version, execution)
    }

    /// ``Migrator/migrateToBuild(_:_:)-5gvas`` on ``shared``, under the name Hengyu's Migration gives it.
    ///
    /// ```swift
    /// Migration.migrate(toBuild: "120") { rebuildIndex() }
    /// ```
    public static func migrate<E: Error>(toBuild build: String, execution: () throws(E) -> Void) throws(E) {
        try shared.migrateToBuild(build, execution)
    }
}
