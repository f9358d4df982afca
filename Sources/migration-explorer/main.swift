import MigrationExplorer

MigrationExplorer.main()
