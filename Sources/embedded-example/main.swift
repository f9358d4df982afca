// An app's own explorer: its real registry, the whole front end. (Shown in the embedding article of the documentation.)
import Foundation
import MigrationCore
import MigrationExplorer

var registry = MigrationRegistry(appName: "Recipes")
registry.migrate(toVersion: "2.0", title: "Convert cups to grams", whatsNew: ["Metric measures"]) { context in
    context.log("converted 42 recipes")
}
registry.migrate(toVersion: "2.1", title: "Index ingredients") { context async throws in
    for batch in 1...4 {
        try await Task.sleep(for: .milliseconds(250))
        context.reportProgress(Double(batch) / 4)
    }
    context.log("indexed 4 batches")
}
registry.migrate(toBuild: "310", title: "Drop the old cache") { _ in print("dropped the old cache") }
registry.onUpdate(title: "Show What's New") { @MainActor context async in
    context.log("What's New shown on the main thread: \(Thread.isMainThread)")
}

MigrationExplorer.main(registry: registry, appVersion: "2.1", appBuild: "312")
