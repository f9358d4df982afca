// An app's own explorer: its real registry, the whole front end. (Shown in the README.)
import MigrationCore
import MigrationExplorer

var registry = MigrationRegistry(appName: "Recipes")
registry.migrate(toVersion: "2.0", title: "Convert cups to grams", whatsNew: ["Metric measures"]) { context in
    context.log("converted 42 recipes")
}
registry.migrate(toVersion: "2.1", title: "Index ingredients") { _ in }
registry.migrate(toBuild: "310", title: "Drop the old cache") { _ in }
registry.onUpdate(title: "Show What's New")

MigrationExplorer.main(registry: registry, appVersion: "2.1", appBuild: "312")
