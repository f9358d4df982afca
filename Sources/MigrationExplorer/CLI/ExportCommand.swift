import ArgumentParser
import Foundation
import MigrationCore
import MigrationManifest

/// `export`: the app's registry as a manifest, for `--manifest` elsewhere (an embedded
/// registry's real migrations, without building the app for this machine).
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Print the app's migrations as a manifest (JSON).",
        discussion: """
        --to and --to-build set the app version and build written (default: the app's own). A \
        manifest is written again with its commands (run, timeout); an app's Swift registry has \
        none to write.
        """)

    @OptionGroup var app: AppOptions

    func run() async throws {
        try await reportingFailures(json: false) {
            let explorer = try ExplorerRequest(app: app).explorer()
            let (version, build) = (explorer.target.version.text, explorer.target.build?.text)
            let data: Data
            if let path = app.manifest {
                // A manifest is written again whole, its commands included.
                do throws(ManifestError) { data = try Manifest.load(path: path).written(appVersion: version, appBuild: build) } catch {
                    throw CommandFailure(.manifest, error.description, path: path)
                }
            } else {
                data = explorer.app.registry.manifest(appVersion: version, appBuild: build)
            }
            StandardStreams.print(String(decoding: data, as: UTF8.self).jsonEscapingTerminalControls)
        }
    }
}
