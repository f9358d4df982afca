import ArgumentParser
import Foundation
import MigrationCore

/// Which upgrade to look at, past what the store recorded: the options of the commands that
/// look at one upgrade (`tui`, `plan`, `run`, `whats-new`), beside ``AppOptions`` and
/// ``StoreOptions``.
struct UpgradeOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Simulate a device that last migrated at this version (overrides what the store recorded).", valueName: "version"))
    var from: VersionArgument?

    @Option(name: .customLong("from-build"), help: ArgumentHelp("Simulate a device that last migrated at this build.", valueName: "build"))
    var fromBuild: VersionArgument?

    @Option(name: .customLong("fresh-install"), help: FreshInstallOption.help)
    var freshInstall: FreshInstallOption?

    @Option(name: .long, help: ArgumentHelp("Built-in demo only: make the demo migration at this version throw, to show a failure.", valueName: "version"))
    var fail: VersionArgument?
}

/// A command that looks at one upgrade: where migrations come from (``AppOptions``), which
/// upgrade (``UpgradeOptions``) and which store (``StoreOptions``), three option groups side by
/// side. (Side by side, not nested in one group: each level of nesting multiplies what
/// ArgumentParser's debug build checks at every start.)
protocol LooksAtOneUpgrade: ParsableArguments {
    var app: AppOptions { get }
    var upgrade: UpgradeOptions { get }
    var stores: StoreOptions { get }
}

extension LooksAtOneUpgrade {
    /// Checks what the groups cannot check alone.
    func validateSource() throws {
        if upgrade.fail != nil, app.manifest != nil || EmbeddedApp.current != nil {
            throw ValidationError("--fail applies to the built-in demo only")
        }
    }

    /// The explorer on the app and store the options name.
    /// - Throws: ``CommandFailure`` listing every unusable input at once.
    func explorer() throws(CommandFailure) -> Explorer { try request.explorer() }

    /// What the options ask about, for an explorer made again later (`plan --watch`).
    var request: ExplorerRequest {
        ExplorerRequest(app: app, from: upgrade.from, fromBuild: upgrade.fromBuild, stores: stores,
                        freshInstall: upgrade.freshInstall, fail: upgrade.fail)
    }
}

/// The registry an embedding app passed to ``MigrationExplorer/main(app:arguments:)``.
enum EmbeddedApp {
    @TaskLocal static var current: ExplorerApp?
}
