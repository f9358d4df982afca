import ArgumentParser
import Foundation
import MigrationCore

/// `matrix`: every upgrade path to the target at once, from a fresh install and from each
/// release the app shipped.
struct MatrixCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "matrix",
        abstract: "For a fresh install and every release as \"from\": which migrations run, which never will (out of order), which failed when last run, and What's New.",
        discussion: "The version track: releases are app versions. --store names the history whose failures are shown.")

    @OptionGroup var source: SourceOptions
    @Flag(help: "Write JSON instead of a table.") var json = false

    func validate() throws {
        try source.reject(["--from", "--from-build", "--fail"], by: "matrix",
                          because: "every release is a \"from\" row, and nothing runs; `plan --from` shows one upgrade")
    }

    func run() async throws {
        try await reportingFailures(json: json, store: source.stores.path) {
            let explorer = try source.explorer()
            let matrix = try explorer.matrix()
            if json {
                StandardStreams.print(JSONReports.encode(JSONReports.Matrix(matrix)))
            } else {
                StandardStreams.print(TextReports.matrix(matrix, app: explorer.app.registry.appName, style: .forStandardOutput()).joined(separator: "\n"))
            }
        }
    }
}
