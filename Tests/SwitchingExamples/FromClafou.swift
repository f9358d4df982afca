import MigrationCore

/// An app's launch written for Clafou's Migration: it compiles against `MigrationCore` unchanged.
func launchWrittenForClafou(_ app: ExampleApp) {
    // snippet: from-clafou
    Migration.migrateToVersion("1.1") { app.normaliseDates() }
    Migration.migrateToVersion("1.2") { app.moveNotesToFolders() }
    // end snippet
}
