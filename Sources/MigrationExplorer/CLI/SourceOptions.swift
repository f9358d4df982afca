import ArgumentParser
import Foundation
import MigrationCore

/// Where migrations come from and which upgrade to look at: the options every command shares.
struct SourceOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("A JSON manifest of migrations (default: the app's own registry, or the built-in demo).", valueName: "file"))
    var manifest: String?

    @Option(name: .long, help: ArgumentHelp("Simulate a device that last migrated at this version (overrides what the store recorded).", valueName: "version"))
    var from: String?

    @Option(name: .long, help: ArgumentHelp("Upgrade to this app version (default: the manifest's appVersion).", valueName: "version"))
    var to: String?

    @Option(name: .customLong("from-build"), help: ArgumentHelp("Simulate a device that last migrated at this build.", valueName: "build"))
    var fromBuild: String?

    @Option(name: .customLong("to-build"), help: ArgumentHelp("Upgrade to this app build (default: the manifest's appBuild).", valueName: "build"))
    var toBuild: String?

    @OptionGroup var stores: StoreOptions

    @Option(name: .customLong("fresh-install"), help: ArgumentHelp("On a fresh install: run-all (MTMigration's behaviour) or baseline (record everything up to the app version without running it).", valueName: "policy"))
    var freshInstall: FreshInstallOption?

    @Option(name: .long, help: ArgumentHelp("Built-in demo only: make the demo migration at this version throw, to show a failure.", valueName: "version"))
    var fail: String?

    func validate() throws {
        if manifest?.isEmpty == true { throw ValidationError("--manifest: the path is empty; name a file") }
        if fail != nil, manifest != nil || EmbeddedApp.current != nil {
            throw ValidationError("--fail applies to the built-in demo only")
        }
    }

    /// Fails when any of `options` (command-line names) is given: `command` does not use them,
    /// and ignoring them would answer another question than the one asked.
    func reject(_ options: Set<String>, by command: String, because reason: String) throws {
        let given = [("--from", from), ("--from-build", fromBuild), ("--fail", fail), ("--fresh-install", freshInstall?.rawValue)]
            .filter { $0.1 != nil }.map(\.0) + stores.given
        let unused = given.filter(options.contains)
        guard !unused.isEmpty else { return }
        throw ValidationError("\(command) does not use \(unused.joined(separator: ", ")): \(reason)")
    }

    /// The app the options name: a manifest, the embedding app's registry, or the demo.
    func app() throws(CommandFailure) -> ExplorerApp { try Self.app(manifest: manifest, fail: fail) }

    /// The app `--manifest` names, else the embedding app's registry, else the demo (with
    /// `--fail`'s migration throwing).
    static func app(manifest: String?, fail: String? = nil) throws(CommandFailure) -> ExplorerApp {
        if let manifest {
            do {
                let loaded = try ExplorerApp.loadManifest(path: manifest)
                for warning in loaded.warnings {
                    Program.report("warning: \(manifest): \(warning.field) \(warning.message)")
                }
                return ExplorerApp(loaded)
            } catch {
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
    /// - Throws: ``CommandFailure`` listing every unusable input at once: each bad version,
    ///   the manifest, and the store.
    func explorer() throws(CommandFailure) -> Explorer {
        var failures = versionProblems()
        var app: ExplorerApp?
        do { app = try self.app() } catch { failures.append(error) }
        var store: StoreLocation?
        do { store = try stores.location() } catch { failures.append(error) }
        if let app, let refusal = sqlRefusal(app, store: store) { failures.append(refusal) }
        if let app, failures.isEmpty {
            do {
                return try Explorer(app: app, options: ExplorerOptions(
                    from: from, to: to, fromBuild: fromBuild, toBuild: toBuild, store: store, policy: (freshInstall ?? .runAll).policy))
            } catch {
                throw CommandFailure(error, store: store?.path)
            }
        }
        if let store, !failures.contains(where: { $0.kind == .store }) {
            do { _ = try store.open().load() } catch {
                failures.append(CommandFailure(error, store: store.path))
            }
        }
        throw CommandFailure(combining: failures)
    }

    /// A manifest's `sql` runs only in the transaction of a SQLite store: with any other it is
    /// refused, naming the migration.
    private func sqlRefusal(_ app: ExplorerApp, store: StoreLocation?) -> CommandFailure? {
        guard let first = app.sqlMigrations.first else { return nil }
        switch store {
        case .sqlite, .postgres: return nil
        default: break
        }
        let more = app.sqlMigrations.count > 1 ? " (and \(app.sqlMigrations.count - 1) more)" : ""
        return CommandFailure(.manifest, "\(first)\(more) runs SQL, which needs the app's database as the store: give --sqlite FILE or --postgres URL; "
            + "with \(store == nil ? "a sandbox" : "this store") its SQL could not commit with its record", path: manifest)
    }

    private func versionProblems() -> [CommandFailure] {
        let versions = [("--from", from), ("--to", to), ("--from-build", fromBuild), ("--to-build", toBuild)]
        return versions.compactMap { option, text -> CommandFailure? in
            guard let text else { return nil }
            do { _ = try Version(text) } catch { return CommandFailure(.version, "\(option): \(error)") }
            return nil
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
