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

    /// ``Migrator/migrateToVersion(_:_:)-5m26x`` on ``shared``.
    ///
    /// ```swift
    /// Migration.migrateToVersion("1.1") { normaliseDates() }
    /// ```
    @inlinable
    public static func migrateToVersion<E: Error>(_ version: String, _ block: () throws(E) -> Void) throws(E) {
        if surelySkips(version, on: .version) { return }
        try shared.migrate(version, on: .version, block)
    }

    /// ``Migrator/migrateToBuild(_:_:)-5gvas`` on ``shared``.
    ///
    /// ```swift
    /// Migration.migrateToBuild("120") { rebuildSearchIndex() }
    /// ```
    @inlinable
    public static func migrateToBuild<E: Error>(_ build: String, _ block: () throws(E) -> Void) throws(E) {
        if surelySkips(build, on: .build) { return }
        try shared.migrate(build, on: .build, block)
    }

    /// ``Migrator/surelySkips(_:on:)`` on ``shared``, inside the lock that guards it: no retain
    /// of the migrator, and no second lock taken to read it.
    @usableFromInline
    static func surelySkips(_ text: String, on track: MigrationTrack) -> Bool {
        current.withLock { $0.surelySkips(text, on: track) }
    }

    /// ``Migrator/applicationUpdateBlock(_:)-4pdk4`` on ``shared``.
    ///
    /// ```swift
    /// Migration.applicationUpdateBlock { showWhatsNew() }
    /// ```
    public static func applicationUpdateBlock<E: Error>(_ block: () throws(E) -> Void) throws(E) {
        try shared.applicationUpdateBlock(block)
    }

    /// ``Migrator/buildNumberUpdateBlock(_:)-7tbqy`` on ``shared``.
    ///
    /// ```swift
    /// Migration.buildNumberUpdateBlock { refreshCaches() }
    /// ```
    public static func buildNumberUpdateBlock<E: Error>(_ block: () throws(E) -> Void) throws(E) {
        try shared.buildNumberUpdateBlock(block)
    }

    /// ``Migrator/reset()`` on ``shared``.
    ///
    /// ```swift
    /// Migration.reset()
    /// ```
    public static func reset() {
        shared.reset()
    }
}

extension Migration {
    /// The asynchronous ``Migrator/migrateToVersion(_:_:)-k615`` on ``shared``.
    ///
    /// ```swift
    /// try await Migration.migrateToVersion("1.1") { try await importer.run() }
    /// ```
    nonisolated(nonsending) public static func migrateToVersion<E: Error>(
        _ version: String, _ block: nonisolated(nonsending) () async throws(E) -> Void
    ) async throws(E) {
        try await shared.migrateToVersion(version, block)
    }

    /// The asynchronous ``Migrator/migrateToBuild(_:_:)-46rv`` on ``shared``.
    ///
    /// ```swift
    /// try await Migration.migrateToBuild("120") { try await cache.rebuild() }
    /// ```
    nonisolated(nonsending) public static func migrateToBuild<E: Error>(
        _ build: String, _ block: nonisolated(nonsending) () async throws(E) -> Void
    ) async throws(E) {
        try await shared.migrateToBuild(build, block)
    }

    /// The asynchronous ``Migrator/applicationUpdateBlock(_:)-6oo79`` on ``shared``.
    ///
    /// ```swift
    /// await Migration.applicationUpdateBlock { await whatsNew.prepare() }
    /// ```
    nonisolated(nonsending) public static func applicationUpdateBlock<E: Error>(
        _ block: nonisolated(nonsending) () async throws(E) -> Void
    ) async throws(E) {
        try await shared.applicationUpdateBlock(block)
    }

    /// The asynchronous ``Migrator/buildNumberUpdateBlock(_:)-5ncsj`` on ``shared``.
    ///
    /// ```swift
    /// await Migration.buildNumberUpdateBlock { await analytics.flush() }
    /// ```
    nonisolated(nonsending) public static func buildNumberUpdateBlock<E: Error>(
        _ block: nonisolated(nonsending) () async throws(E) -> Void
    ) async throws(E) {
        try await shared.buildNumberUpdateBlock(block)
    }
}
