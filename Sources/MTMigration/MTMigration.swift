import MigrationCore

/// MTMigration's API under the names Swift gives its Objective-C pod, so that an app switches by
/// changing its dependency line and nothing else.
///
/// Every call goes to the same shared migrator as the `Migration` facade
/// (`Migration.shared`: `UserDefaults.standard`, MTMigration's own keys, the main bundle's
/// version and build), so a test or tool that replaces it controls both.
///
/// ```swift
/// import MTMigration
///
/// MTMigration.migrate(toVersion: "1.1") { normaliseDates() }
/// MTMigration.migrate(toBuild: "12", block: { rebuildIndex() })
/// MTMigration.applicationUpdate { showWhatsNew() }
/// MTMigration.buildNumberUpdate { refreshCaches() }
/// MTMigration.reset()
/// ```
///
/// The blocks use typed throws: a block that cannot throw needs no `try`, as with the pod; one
/// that throws is not recorded as done, and until it has succeeded no higher block of its
/// track runs.
public enum MTMigration {
    /// `+[MTMigration migrateToVersion:block:]`: runs `block` once, when the app reaches `version`.
    public static func migrate<E: Error>(toVersion version: String, block: () throws(E) -> Void) throws(E) {
        try Migration.shared.migrateToVersion(version, block)
    }

    /// `+[MTMigration migrateToBuild:block:]`: runs `block` once, when the app reaches build `build`.
    public static func migrate<E: Error>(toBuild build: String, block: () throws(E) -> Void) throws(E) {
        try Migration.shared.migrateToBuild(build, block)
    }

    /// `+[MTMigration applicationUpdateBlock:]`: runs `block` when the app version differs from
    /// the one recorded, a first launch included.
    public static func applicationUpdate<E: Error>(_ block: () throws(E) -> Void) throws(E) {
        try Migration.shared.applicationUpdateBlock(block)
    }

    /// `+[MTMigration buildNumberUpdateBlock:]`: runs `block` when the app build differs from
    /// the one recorded, a first launch included.
    public static func buildNumberUpdate<E: Error>(_ block: () throws(E) -> Void) throws(E) {
        try Migration.shared.buildNumberUpdateBlock(block)
    }

    /// `+[MTMigration reset]`: forgets every mark, so the next calls run every block up to the
    /// app version again.
    public static func reset() {
        Migration.shared.reset()
    }
}

extension MTMigration {
    /// The asynchronous ``migrate(toVersion:block:)``: the block may await.
    ///
    /// ```swift
    /// try await MTMigration.migrate(toVersion: "1.1") { try await importer.run() }
    /// ```
    nonisolated(nonsending) public static func migrate<E: Error>(
        toVersion version: String, block: nonisolated(nonsending) () async throws(E) -> Void
    ) async throws(E) {
        try await Migration.shared.migrateToVersion(version, block)
    }

    /// The asynchronous ``migrate(toBuild:block:)``.
    nonisolated(nonsending) public static func migrate<E: Error>(
        toBuild build: String, block: nonisolated(nonsending) () async throws(E) -> Void
    ) async throws(E) {
        try await Migration.shared.migrateToBuild(build, block)
    }

    /// The asynchronous ``applicationUpdate(_:)``.
    nonisolated(nonsending) public static func applicationUpdate<E: Error>(
        _ block: nonisolated(nonsending) () async throws(E) -> Void
    ) async throws(E) {
        try await Migration.shared.applicationUpdateBlock(block)
    }

    /// The asynchronous ``buildNumberUpdate(_:)``.
    nonisolated(nonsending) public static func buildNumberUpdate<E: Error>(
        _ block: nonisolated(nonsending) () async throws(E) -> Void
    ) async throws(E) {
        try await Migration.shared.buildNumberUpdateBlock(block)
    }
}
