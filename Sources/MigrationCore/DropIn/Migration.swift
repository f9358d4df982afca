/// The drop-in static facade, as in MTMigration and Clafou's Migration: a shared ``Migrator``
/// on `UserDefaults.standard` with the main bundle's version and build.
///
/// ```swift
/// Migration.migrateToVersion("1.1") { normaliseDates() }
/// Migration.applicationUpdateBlock { showWhatsNew() }
/// Migration.reset()
/// ```
///
/// Replace ``shared`` (say, in tests or a command-line tool) to use another store or version.
public enum Migration {
    private static let current = Locked(Migrator(versions: .mainBundle(), store: UserDefaultsMigrationStore()))

    /// The migrator the static calls use.
    public static var shared: Migrator {
        get { current.withLock { $0 } }
        set { current.withLock { $0 = newValue } }
    }

    /// ``Migrator/migrateToVersion(_:_:)`` on ``shared``.
    public static func migrateToVersion<E: Error>(_ version: String, _ block: () throws(E) -> Void) throws(E) {
        try shared.migrateToVersion(version, block)
    }

    /// ``Migrator/migrateToBuild(_:_:)`` on ``shared``.
    public static func migrateToBuild<E: Error>(_ build: String, _ block: () throws(E) -> Void) throws(E) {
        try shared.migrateToBuild(build, block)
    }

    /// ``Migrator/applicationUpdateBlock(_:)`` on ``shared``.
    public static func applicationUpdateBlock<E: Error>(_ block: () throws(E) -> Void) throws(E) {
        try shared.applicationUpdateBlock(block)
    }

    /// ``Migrator/buildNumberUpdateBlock(_:)`` on ``shared``.
    public static func buildNumberUpdateBlock<E: Error>(_ block: () throws(E) -> Void) throws(E) {
        try shared.buildNumberUpdateBlock(block)
    }

    /// ``Migrator/applicationUpdateBlock(_:)`` on ``shared``, under the name MTMigration's
    /// Swift pod gives it, so that code written for that pod compiles unchanged.
    ///
    /// ```swift
    /// Migration.applicationUpdate { showWhatsNew() }
    /// ```
    public static func applicationUpdate<E: Error>(_ block: () throws(E) -> Void) throws(E) {
        try shared.applicationUpdateBlock(block)
    }

    /// ``Migrator/buildNumberUpdateBlock(_:)`` on ``shared``, under the name MTMigration's
    /// Swift pod gives it.
    ///
    /// ```swift
    /// Migration.buildNumberUpdate { refreshCaches() }
    /// ```
    public static func buildNumberUpdate<E: Error>(_ block: () throws(E) -> Void) throws(E) {
        try shared.buildNumberUpdateBlock(block)
    }

    /// ``Migrator/reset()`` on ``shared``.
    public static func reset() {
        shared.reset()
    }
}
