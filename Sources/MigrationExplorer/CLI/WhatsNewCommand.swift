import ArgumentParser
import Foundation
import MigrationCore

/// `whats-new`: the What's New of one upgrade, for release notes or an in-app screen.
struct WhatsNewCommand: AsyncParsableCommand, LooksAtOneUpgrade {
    static let configuration = CommandConfiguration(
        commandName: "whats-new", abstract: "Print the What's New of one upgrade: text, JSON or Markdown.")

    @OptionGroup var app: AppOptions
    @OptionGroup var upgrade: UpgradeOptions
    @OptionGroup var stores: StoreOptions
    @Flag(help: "Write JSON.") var json = false
    @Flag(help: "Write Markdown, for release notes.") var markdown = false

    func validate() throws {
        try validateSource()
        if json && markdown { throw ValidationError("give --json or --markdown, not both") }
    }

    func run() async throws {
        try await reportingFailures(json: json, store: stores.path) {
            let explorer = try explorer()
            let plan = try explorer.plan()
            let app = explorer.app.registry.appName
            if json {
                StandardStreams.print(JSONReports.encode(JSONReports.WhatsNew(plan, app: app)))
            } else {
                StandardStreams.print(TextReports.whatsNew(plan, app: app, markdown: markdown, style: .forStandardOutput()).joined(separator: "\n"))
            }
        }
    }
}
