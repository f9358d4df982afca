import MigrationCore

/// An app's launch written for MTMigration's own Swift pod (`Migration`): it compiles against
/// `MigrationCore` unchanged.
func launchWrittenForMTMigrationSwiftPod(_ app: ExampleApp) {
    // snippet: from-mtmigration-swift-pod
    Migration.migrateToVersion("1.1") { app.normaliseDates() }
    Migration.migrateToVersion("1.2") { app.moveNotesToFolders() }
    Migration.migrateToBuild("120") { app.rebuildSearchIndex() }
    Migration.applicationUpdate { app.showWhatsNew() }
    Migration.buildNumberUpdate { app.refreshCaches() }
    // end snippet
}
