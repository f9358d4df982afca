import MigrationCore

/// Awaits the asynchronous `migrateToVersion` for every version, off the main actor (this
/// function is not isolated); returns how many blocks ran.
func awaitEveryVersion(_ migrator: Migrator, _ versions: [String]) async -> Int {
    var ran = 0
    for version in versions { await migrator.migrateToVersion(version) { () async in ran += 1 } }
    return ran
}
