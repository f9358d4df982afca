import ArgumentParser
import Foundation
import MigrationCore

/// Where migrations come from and which upgrade to look at: the options every command shares.
struct SourceOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("A JSON manifest of migrations (default: the app's own registry, or the built-in demo).", valueName: "file"))
    var manifest: String?

    @Option(name: .long, help: ArgumentHelp("Simulate a device that last migrated at this version (overrides what --store recorded).", valueName: "version"))
    var from: String?

    @Option(name: .long, help: ArgumentHelp("Upgrade to this app version (default: the manifest's appVersion).", valueName: "version"))
    var to: String?

    @Option(name: .customLong("from-build"), help: ArgumentHelp("Simulate a device that last migrated at this build.", valueName: "build"))
    var fromBuild: String?

    @Option(name: .customLong("to-build"), help: ArgumentHelp("Upgrade to this app build (default: the manifest's appBuild).", valueName: "build"))
    var toBuild: String?

    @Option(name: .long, help: ArgumentHelp("A JSON state file to run against for real (default: a sandbox).", valueName: "file"))
    var store: String?

    @Option(name: .long, help: ArgumentHelp("The app's SQLite database to keep the records in, and to run manifests' \"sql\" in (instead of --store).", valueName: "file"))
    var sqlite: String?

    @Option(name: .long, help: ArgumentHelp("The domain of the state file or database (default: \"default\"); one can hold several.", valueName: "name"))
    var domain: String = FileMigrationStore.defaultDomain

    @Option(name: .customLong("fresh-install"), help: ArgumentHelp("On a fresh install: run-all (MTMigration's behaviour) or baseline (record everything up to the app version without running it).", valueName: "policy"))
    var freshInstall: FreshInstallOption = .runAll

    @Option(name: .long, help: ArgumentHelp("Built-in demo only: make the demo migration at this version throw, to show a failure.", valueName: "version"))
    var fail: String?

    /// The real store named, `--store` or `--sqlite`, for messages.
    var storePath: String? { store ?? sqlite }

    func validate() throws {
        if store != nil, sqlite != nil { throw ValidationError("give --store or --sqlite, not both") }
        if fail != nil, manifest != nil || EmbeddedApp.current != nil {
            throw ValidationError("--fail applies to the built-in demo only")
        }
    }

    /// The app the options name: a manifest, the embedding app's registry, or the demo.
    func app() throws(CommandFailure) -> ExplorerApp {
        if let manifest {
            do { return try Manifest.load(path: manifest) } catch {
                throw CommandFailure(.manifest, error.description, path: manifest)
            }
        }
        if let embedded = EmbeddedApp.current { return embedded }
        let failing: Version?
        do { failing = try fail.map { (text) throws(VersionError) in try Version(text) } } catch {
            throw CommandFailure(.version, "--fail: \(error)")
        }
        return DemoApp.make(failing: failing)
    }

    /// The explorer on the app and store the options name.
    /// - Throws: ``CommandFailure``: every bad version at once, then the manifest, then the store.
    func explorer() throws(CommandFailure) -> Explorer {
        let versions = [("--from", from), ("--to", to), ("--from-build", fromBuild), ("--to-build", toBuild)]
        let problems = versions.compactMap { option, text -> String? in
            guard let text else { return nil }
            do { _ = try Version(text) } catch { return "\(option): \(error)" }
            return nil
        }
        if !problems.isEmpty { throw CommandFailure(.version, problems.joined(separator: "\n")) }
        let app = try app()
        if let first = app.sqlMigrations.first, sqlite == nil {
            let more = app.sqlMigrations.count > 1 ? " (and \(app.sqlMigrations.count - 1) more)" : ""
            throw CommandFailure(.manifest, "\(first)\(more) runs SQL, which needs the app's database as the store: "
                + "give --sqlite FILE; with \(store == nil ? "a sandbox" : "--store") its SQL could not commit with its record", path: manifest)
        }
        if let store { try StorePath.check(store) }
        if let sqlite { try StorePath.check(sqlite, sqlite: true) }
        do {
            return try Explorer(app: app, options: ExplorerOptions(
                from: from, to: to, fromBuild: fromBuild, toBuild: toBuild, storePath: store, sqlitePath: sqlite, domain: domain,
                policy: freshInstall.policy))
        } catch {
            throw CommandFailure(error, store: storePath)
        }
    }
}

/// `--fresh-install`: the command line's spelling of ``FreshInstallPolicy``.
enum FreshInstallOption: String, CaseIterable, ExpressibleByArgument {
    case runAll = "run-all"
    case baseline

    var policy: FreshInstallPolicy { self == .runAll ? .runAll : .baseline }
}

/// The registry an embedding app passed to ``MigrationExplorer/main(app:arguments:)``.
enum EmbeddedApp {
    @TaskLocal static var current: ExplorerApp?
}
