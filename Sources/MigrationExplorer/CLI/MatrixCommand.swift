import ArgumentParser
import Foundation
import MigrationCore

/// `matrix`: every upgrade path to the target at once, from a fresh install and from each
/// release the app shipped.
struct MatrixCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "matrix",
        abstract: "For a fresh install and every release as \"from\": which migrations run, which never will (out of order), which failed when last run, and What's New.",
        discussion: "The version track: releases are app versions. --store names the history whose failures are shown. Every release is a \"from\" row; `plan --from` shows one upgrade.")

    @OptionGroup var app: AppOptions
    @OptionGroup var stores: StoreOptions
    @Option(name: .customLong("fresh-install"), help: FreshInstallOption.help)
    var freshInstall: FreshInstallOption?
    @Flag(help: "Write JSON instead of a table.") var json = false

    func run() async throws {
        try await reportingFailures(json: json, store: stores.path) {
            let explorer = try ExplorerRequest(app: app, stores: stores, freshInstall: freshInstall).explorer()
            let matrix = try explorer.matrix()
            if json {
                StandardStreams.print(JSONReports.encode(JSONReports.Matrix(matrix)))
            } else {
                StandardStreams.print(TextReports.matrix(matrix, app: explorer.app.registry.appName, style: .forStandardOutput()).joined(separator: "\n"))
            }
        }
    }
}
