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

    /// `matrix --from 0.8`: the usage error that says the matrix takes every release as
    /// "from" and how to see one upgrade, rather than argument-parser's guess at another option.
    /// `nil` when `arguments` are not `matrix` with `--from` or `--from-build`.
    static func fromRefusal(in arguments: [String]) -> CommandFailure? {
        guard arguments.first == configuration.commandName else { return nil }
        let options = Array(arguments.prefix { $0 != "--" })
        for (index, argument) in options.enumerated() {
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            guard let option = parts.first, option == "--from" || option == "--from-build" else { continue }
            let given = parts.count == 2 ? parts[1] : options.dropFirst(index + 1).first
            // The example repeats the value only when it is a version: nothing else is echoed.
            let value = given.flatMap { try? Version($0) }?.text ?? (option == "--from" ? "0.8" : "90")
            return CommandFailure(.usage, "matrix takes every release as \"from\": a row for a fresh install, then one for each release "
                + "below the app's version; to see the upgrade from one version, run '\(Program.name) plan \(option) \(value)'")
        }
        return nil
    }

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
