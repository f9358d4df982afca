import ArgumentParser
import Foundation
import MigrationCore

/// What a command asks about, once its options are parsed: the app, the upgrade and the store.
/// Each command has the options it takes; what it does not take stays `nil`.
///
/// ```swift
/// let explorer = try ExplorerRequest(app: app, stores: stores).explorer()
/// ```
struct ExplorerRequest {
    var app: AppOptions
    var from: String? = nil
    var fromBuild: String? = nil
    var stores: StoreOptions? = nil
    var freshInstall: FreshInstallOption? = nil
    var fail: String? = nil

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

    /// The explorer on the app and store asked for.
    /// - Throws: ``CommandFailure`` listing every unusable input at once: each bad version,
    ///   the manifest, and the store.
    func explorer() throws(CommandFailure) -> Explorer {
        var failures = versionProblems()
        var app: ExplorerApp?
        do { app = try Self.app(manifest: self.app.manifest, fail: fail) } catch { failures.append(error) }
        var store: StoreLocation?
        do { store = try stores?.location() } catch { failures.append(error) }
        if let app, let refusal = sqlRefusal(app, store: store) { failures.append(refusal) }
        if let app, failures.isEmpty {
            do {
                return try Explorer(app: app, options: ExplorerOptions(
                    from: from, to: self.app.to, fromBuild: fromBuild, toBuild: self.app.toBuild, store: store,
                    policy: (freshInstall ?? .runAll).policy))
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
        if case .sqlite = store { return nil }
        let more = app.sqlMigrations.count > 1 ? " (and \(app.sqlMigrations.count - 1) more)" : ""
        return CommandFailure(.manifest, "\(first)\(more) runs SQL, which needs the app's database as the store: give --sqlite FILE; "
            + "with \(store == nil ? "a sandbox" : "this store") its SQL could not commit with its record", path: self.app.manifest)
    }

    private func versionProblems() -> [CommandFailure] {
        let versions = [("--from", from), ("--to", app.to), ("--from-build", fromBuild), ("--to-build", app.toBuild)]
        return versions.compactMap { option, text -> CommandFailure? in
            guard let text else { return nil }
            do { _ = try Version(text) } catch { return CommandFailure(.version, "\(option): \(error)") }
            return nil
        }
    }
}
