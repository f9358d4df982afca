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

    /// `matrix --from 0.8` (or `--from-build 90`): taken only to be refused, saying that the
    /// matrix takes every release as "from" and how to see one upgrade, rather than
    /// argument-parser's guess at another option.
    @Option(name: .customLong("from"), help: .private) var oneFrom: String?
    @Option(name: .customLong("from-build"), help: .private) var oneFromBuild: String?

    func run() async throws {
        if let (option, given) = oneFrom.map({ ("--from", $0) }) ?? oneFromBuild.map({ ("--from-build", $0) }) {
            // The example repeats the value only when it is a version: nothing else is echoed.
            let value = (try? Version(given))?.text ?? (option == "--from" ? "0.8" : "90")
            throw CommandFailure(.usage, "matrix takes every release as \"from\": a row for a fresh install, then one for each release "
                + "below the app's version; to see the upgrade from one version, run '\(Program.name) plan \(option) \(value)'")
        }
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
