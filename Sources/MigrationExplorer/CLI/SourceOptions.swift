import ArgumentParser
import Foundation
import MigrationCore

/// Where migrations come from and which upgrade to look at: the options of the commands that
/// look at one upgrade (`tui`, `plan`, `run`, `whats-new`).
struct SourceOptions: ParsableArguments {
    @OptionGroup var app: AppOptions

    @Option(name: .long, help: ArgumentHelp("Simulate a device that last migrated at this version (overrides what the store recorded).", valueName: "version"))
    var from: VersionArgument?

    @Option(name: .customLong("from-build"), help: ArgumentHelp("Simulate a device that last migrated at this build.", valueName: "build"))
    var fromBuild: VersionArgument?

    @OptionGroup var stores: StoreOptions

    @Option(name: .customLong("fresh-install"), help: FreshInstallOption.help)
    var freshInstall: FreshInstallOption?

    @Option(name: .long, help: ArgumentHelp("Built-in demo only: make the demo migration at this version throw, to show a failure.", valueName: "version"))
    var fail: VersionArgument?

    func validate() throws {
        if fail != nil, app.manifest != nil || EmbeddedApp.current != nil {
            throw ValidationError("--fail applies to the built-in demo only")
        }
    }

    /// The explorer on the app and store the options name.
    /// - Throws: ``CommandFailure`` listing every unusable input at once.
    func explorer() throws(CommandFailure) -> Explorer { try request.explorer() }

    /// What the options ask about, for an explorer made again later (`plan --watch`).
    var request: ExplorerRequest {
        ExplorerRequest(app: app, from: from, fromBuild: fromBuild, stores: stores, freshInstall: freshInstall, fail: fail)
    }
}

/// The registry an embedding app passed to ``MigrationExplorer/main(app:arguments:)``.
enum EmbeddedApp {
    @TaskLocal static var current: ExplorerApp?
}
