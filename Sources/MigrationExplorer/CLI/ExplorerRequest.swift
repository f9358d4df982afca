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
    var from: VersionArgument? = nil
    var fromBuild: VersionArgument? = nil
    var stores: StoreOptions? = nil
    var freshInstall: FreshInstallOption? = nil
    var fail: VersionArgument? = nil
    /// How the store waits for another process that holds it, and whom it tells.
    var waiting = StoreWaiting()

    /// The app `--manifest` names, else the embedding app's registry, else the demo (with
    /// `--fail`'s migration throwing).
    static func app(manifest: String?, fail: VersionArgument? = nil) throws(CommandFailure) -> ExplorerApp {
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
        let failing = try fail?.version(of: "--fail")
        let demo = DemoApp.make(failing: failing)
        // A --fail that names no migration would make nothing fail, silently.
        if let failing, !demo.registry.migrations.contains(where: { $0.track == .version && $0.version == failing }) {
            let versions = demo.registry.migrations.filter { $0.track == .version }.map(\.declared).joined(separator: ", ")
            throw CommandFailure(.usage, "--fail: the demo has no migration at version \(failing.text) (it has \(versions))")
        }
        return demo
    }

    /// The explorer on the app and store asked for.
    /// - Throws: ``CommandFailure`` listing every unusable input at once: each bad version,
    ///   the manifest, and the store.
    func explorer() throws(CommandFailure) -> Explorer {
        var failures: [CommandFailure] = []
        var options = options(failures: &failures)
        var app: ExplorerApp?
        do { app = try Self.app(manifest: self.app.manifest, fail: fail) } catch { failures.append(error) }
        var store: StoreLocation?
        var storeIsUsable = true
        do { store = try stores?.location() } catch {
            failures.append(error)
            storeIsUsable = false
        }
        // A store that was given but cannot be used is its own error, not a missing one. A
        // command that takes no store (`export`) runs and records nothing: SQL needs no database there.
        if let app, stores != nil, storeIsUsable, let refusal = sqlRefusal(app, runsSQL: store?.backend.runsManifestSQL == true, store: store != nil) {
            failures.append(refusal)
        }
        if let app, failures.isEmpty {
            do {
                options.store = store
                return try Explorer(app: app, options: options, realStore: store?.open(waiting: waiting))
            } catch {
                throw CommandFailure(error, store: store?.path)
            }
        }
        if let store, !failures.contains(where: { $0.kind == .store }) {
            do { _ = try store.open(waiting: waiting).load() } catch {
                failures.append(CommandFailure(error, store: store.path))
            }
        }
        throw CommandFailure(combining: failures)
    }

    /// The explorer on `app` over `realStore`, opened already, with the upgrade and policy asked
    /// for: `plan --watch`'s again once the manifest is saved or the store changes.
    ///
    /// ```swift
    /// let updated = try request.explorer(app: saved, over: explorer.realStore)
    /// ```
    /// - Throws: ``CommandFailure`` for a manifest whose SQL the store cannot run, or a version
    ///   `app` declares that is not one.
    func explorer(app: ExplorerApp, over realStore: (any RealStore)?) throws(CommandFailure) -> Explorer {
        var failures: [CommandFailure] = []
        let options = options(failures: &failures)
        if let refusal = sqlRefusal(app, runsSQL: realStore?.manifestSQL != nil, store: realStore != nil) { failures.append(refusal) }
        guard failures.isEmpty else { throw CommandFailure(combining: failures) }
        do { return try Explorer(app: app, options: options, realStore: realStore) } catch {
            throw CommandFailure(error, store: realStore?.displayPath)
        }
    }

    /// The upgrade and policy asked for; each version that is not one is added to `failures`.
    private func options(failures: inout [CommandFailure]) -> ExplorerOptions {
        ExplorerOptions(
            from: from.version(of: "--from", failures: &failures), to: app.to.version(of: "--to", failures: &failures),
            fromBuild: fromBuild.version(of: "--from-build", failures: &failures),
            toBuild: app.toBuild.version(of: "--to-build", failures: &failures), policy: (freshInstall ?? .runAll).policy)
    }

    /// A manifest's `sql` runs only in the transaction of a database store
    /// (``StoreBackend/runsManifestSQL``, `runsSQL`): with any other it is refused, naming the
    /// migration; `store`: whether a store is named (else it is a sandbox).
    private func sqlRefusal(_ app: ExplorerApp, runsSQL: Bool, store: Bool) -> CommandFailure? {
        guard let first = app.sqlMigrations.first, !runsSQL else { return nil }
        let more = app.sqlMigrations.count > 1 ? " (and \(app.sqlMigrations.count - 1) more)" : ""
        return CommandFailure(.manifest, "\(first)\(more) runs SQL, which needs the app's database as the store: give --sqlite FILE or --postgres URL; "
            + "with \(store ? "this store" : "a sandbox") its SQL could not commit with its record", path: self.app.manifest)
    }
}
