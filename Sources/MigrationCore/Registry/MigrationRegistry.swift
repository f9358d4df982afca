/// The migrations and update hooks an app declares, as a value that can be listed, planned,
/// simulated, dry-run and run.
///
/// ```swift
/// var registry = MigrationRegistry(appName: "Notes")
/// registry.migrate(toVersion: "0.9", title: "Add GUIDs to events", whatsNew: ["Sync across devices"]) { context in
///     context.log("added 12 GUIDs")
/// }
/// registry.migrate(toBuild: "118", title: "Rebuild search index") { _ in }
/// registry.onUpdate(title: "Reset statistics") { _ in }
///
/// let runner = MigrationRunner(registry: registry, target: try AppTarget(version: "1.0", build: "120"))
/// let report = try runner.run(store: FileMigrationStore(url: stateURL))
/// ```
public struct MigrationRegistry: Sendable {
    /// The app's name, for headers and reports.
    public var appName: String
    /// Every declared migration, in declaration order, valid or not.
    public private(set) var migrations: [RegisteredMigration] = []
    /// Every declared update hook, in declaration order.
    public private(set) var hooks: [UpdateHook] = []
    /// The versions the app shipped, in any order: with them a simulated device that last ran
    /// one of them has a known history (see ``device(lastRan:build:)``).
    ///
    /// ```swift
    /// registry.releases = try ["0.5", "0.8", "0.9", "1.0"].map { try Version($0) }
    /// ```
    public var releases: [Version] = []
    /// How many interrupted attempts at one app build hold a migration back (see
    /// ``InterruptedHoldBack``); 0: never hold one back.
    ///
    /// ```swift
    /// registry.interruptionLimit = 5
    /// ```
    public var interruptionLimit = MigrationRule.defaultInterruptionLimit

    /// An empty registry for the app named `appName`.
    ///
    /// ```swift
    /// var registry = MigrationRegistry(appName: "Notes")
    /// ```
    public init(appName: String = "App") {
        self.appName = appName
    }

    /// Declares a migration that runs once when the app reaches `version`.
    ///
    /// An invalid version is kept and reported by the plan, never dropped. `since` is the
    /// first release whose code contains it (default: `version`): a migration added in 1.0
    /// for version 0.7 has `since: "1.0"`, and devices already past 0.7 never run it.
    ///
    /// ```swift
    /// registry.migrate(toVersion: "0.9", title: "Add GUIDs", notes: "Each note gets a GUID for sync",
    ///                  whatsNew: ["Sync across devices"]) { context in
    ///     context.log("added \(try addGUIDs()) GUIDs")
    /// }
    /// ```
    public mutating func migrate(
        toVersion version: String, title: String, notes: String? = nil, whatsNew: [String] = [],
        since: String? = nil, body: @escaping MigrationBody = { _ in }
    ) {
        declare(.version, version, title: title, notes: notes, whatsNew: whatsNew, since: since, body: .sync(body))
    }

    /// Declares a migration with an asynchronous body, run by `try await runner.run(store:)`.
    ///
    /// ```swift
    /// registry.migrate(toVersion: "2.0", title: "Move notes to SwiftData") { context async throws in
    ///     try await importer.run()
    ///     context.reportProgress(1)
    /// }
    /// ```
    public mutating func migrate(
        toVersion version: String, title: String, notes: String? = nil, whatsNew: [String] = [],
        since: String? = nil, body: @escaping AsyncMigrationBody
    ) {
        declare(.version, version, title: title, notes: notes, whatsNew: whatsNew, since: since, body: .async(body))
    }

    /// Declares a migration that runs once when the app reaches build `build`
    /// (`CFBundleVersion`), by the same rule as version migrations, on the build track.
    ///
    /// ```swift
    /// registry.migrate(toBuild: "118", title: "Rebuild the search index") { _ in try rebuildIndex() }
    /// ```
    public mutating func migrate(
        toBuild build: String, title: String, notes: String? = nil, whatsNew: [String] = [],
        body: @escaping MigrationBody = { _ in }
    ) {
        declare(.build, build, title: title, notes: notes, whatsNew: whatsNew, body: .sync(body))
    }

    /// Declares a migration to build `build` with an asynchronous body.
    ///
    /// ```swift
    /// registry.migrate(toBuild: "118", title: "Rebuild the search index") { _ async throws in try await index.rebuild() }
    /// ```
    public mutating func migrate(
        toBuild build: String, title: String, notes: String? = nil, whatsNew: [String] = [],
        body: @escaping AsyncMigrationBody
    ) {
        declare(.build, build, title: title, notes: notes, whatsNew: whatsNew, body: .async(body))
    }

    /// Declares code that runs whenever the app version changes, a first launch included.
    /// Hooks run after the migrations, version hooks first.
    ///
    /// ```swift
    /// registry.onUpdate(title: "Reset statistics") { _ in statistics.reset() }
    /// ```
    public mutating func onUpdate(title: String, body: @escaping MigrationBody = { _ in }) {
        hook(.version, title: title, body: .sync(body))
    }

    /// Declares asynchronous code that runs whenever the app version changes.
    ///
    /// ```swift
    /// registry.onUpdate(title: "Show What's New") { @MainActor _ async in WhatsNew.show() }
    /// ```
    public mutating func onUpdate(title: String, body: @escaping AsyncMigrationBody) {
        hook(.version, title: title, body: .async(body))
    }

    /// Declares code that runs whenever the app build changes, a first launch included.
    ///
    /// ```swift
    /// registry.onBuildUpdate(title: "Clear caches") { _ in try clearCaches() }
    /// ```
    public mutating func onBuildUpdate(title: String, body: @escaping MigrationBody = { _ in }) {
        hook(.build, title: title, body: .sync(body))
    }

    /// Declares asynchronous code that runs whenever the app build changes.
    ///
    /// ```swift
    /// registry.onBuildUpdate(title: "Refresh the catalogue") { _ async throws in try await catalogue.refresh() }
    /// ```
    public mutating func onBuildUpdate(title: String, body: @escaping AsyncMigrationBody) {
        hook(.build, title: title, body: .async(body))
    }

    /// Declares a migration of either kind.
    mutating func declare(
        _ track: MigrationTrack, _ declared: String, title: String, notes: String?, whatsNew: [String],
        since: String? = nil, body: MigrationWork
    ) {
        migrations.append(RegisteredMigration(
            id: migrations.count, track: track, declared: declared, title: title, notes: notes, whatsNew: whatsNew,
            since: since, body: body
        ))
    }

    private mutating func hook(_ track: MigrationTrack, title: String, body: MigrationWork) {
        hooks.append(UpdateHook(id: hooks.count, track: track, title: title, body: body))
    }
}
