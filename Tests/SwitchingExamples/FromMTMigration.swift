import MTMigration

/// An app's launch written for MTMigration's Objective-C pod, called from Swift: it compiles
/// against this package unchanged (this file imports `MTMigration` and nothing else).
func launchWrittenForMTMigration(_ app: ExampleApp) {
    // snippet: from-mtmigration
    MTMigration.migrate(toVersion: "1.1") { app.normaliseDates() }
    MTMigration.migrate(toVersion: "1.2", block: { app.moveNotesToFolders() })
    MTMigration.migrate(toBuild: "120") { app.rebuildSearchIndex() }
    MTMigration.applicationUpdate { app.showWhatsNew() }
    MTMigration.buildNumberUpdate { app.refreshCaches() }
    // end snippet
}

/// A "show the welcome again" button, as apps that ship `reset` have it.
func resetWrittenForMTMigration() {
    MTMigration.reset()
}
