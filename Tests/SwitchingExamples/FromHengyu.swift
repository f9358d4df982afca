import MigrationCore

/// An app's launch written for Hengyu's Migration: it compiles against `MigrationCore` unchanged.
func launchWrittenForHengyu(_ app: ExampleApp) {
    // snippet: from-hengyu
    Migration.migrate(toVersion: "1.1") { app.normaliseDates() }
    Migration.migrate(toVersion: "1.2", execution: { app.moveNotesToFolders() })
    Migration.migrate(toBuild: "120") { app.rebuildSearchIndex() }
    Migration.applicationUpdate { app.showWhatsNew() }
    Migration.buildNumberUpdate { app.refreshCaches() }
    // end snippet
}
