import ArgumentParser
import Foundation
import MigrationCore

/// `export`: the app's registry as a manifest, for `--manifest` elsewhere (an embedded
/// registry's real migrations, without building the app for this machine).
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print the app's migrations as a manifest (JSON, without commands).",
        discussion: "--to and --to-build set the app version and build written (default: the app's own).")

    @OptionGroup var source: SourceOptions

    func run() throws {
        try reportingFailures(json: false) {
            let explorer = try source.explorer()
            let data = explorer.app.registry.manifest(appVersion: explorer.target.version.text, appBuild: explorer.target.build?.text)
            print(String(decoding: data, as: UTF8.self))
        }
    }
}
