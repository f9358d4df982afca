import Foundation
import MigrationCore

extension MigrationRegistry {
    /// The registry as a manifest (the JSON `migration-explorer --manifest` reads; a Swift
    /// registry's bodies have no `run`, a loaded manifest's `commands` give it back): an app writes it from a unit test or a debug menu, and the explorer shows its
    /// real migrations without building the app for the host. Loading it gives the same plan
    /// for any upgrade.
    ///
    /// ```swift
    /// let data = registry.manifest(appVersion: "1.0", appBuild: "120")
    /// try data.write(to: URL(fileURLWithPath: "/tmp/notes-manifest.json"))
    /// ```
    /// - Parameters:
    ///   - appVersion: the version the app is at now (`appVersion`): the explorer's default target.
    ///   - appBuild: the build the app is at now (`appBuild`), if it has one.
    ///   - releases: the shipped releases (default: the registry's `releases`), written once each, ascending.
    ///   - commands: the `run`, `timeout` and `sql` of the migrations and hooks that have them.
    public func manifest(appVersion: String, appBuild: String? = nil, releases: [Version]? = nil, commands: ManifestCommands = ManifestCommands()) -> Data {
        let releases = releases ?? self.releases
        let document = ManifestDocument(
            app: appName, appVersion: appVersion, appBuild: appBuild,
            releases: releases.isEmpty ? nil : Set(releases).sorted().map(\.text),
            migrations: migrations.map { ManifestDocument.Migration($0, command: commands.migrations[$0.id], sql: commands.sql[$0.id]) },
            onUpdate: hooks(on: .version, commands: commands), onBuildUpdate: hooks(on: .build, commands: commands)
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Strings and lists of strings only: encoding cannot fail.
        return (try? encoder.encode(document)) ?? Data()
    }

    private func hooks(on track: MigrationTrack, commands: ManifestCommands) -> [ManifestDocument.Hook]? {
        let titles = hooks.filter { $0.track == track }.map { hook in
            ManifestDocument.Hook(title: hook.title, run: commands.hooks[hook.id]?.run, timeout: commands.hooks[hook.id]?.timeout)
        }
        return titles.isEmpty ? nil : titles
    }
}

/// The written shape of a manifest; absent values are left out.
private struct ManifestDocument: Encodable {
    struct Migration: Encodable {
        var version: String?
        var build: String?
        var title: String
        var notes: String?
        var whatsNew: [String]?
        var since: String?
        var run: String?
        var sql: String?
        var timeout: Double?

        init(_ migration: RegisteredMigration, command: ManifestCommands.Command?, sql: String?) {
            if migration.track == .version { version = migration.declared } else { build = migration.declared }
            title = migration.title
            notes = migration.notes
            whatsNew = migration.whatsNew.isEmpty ? nil : migration.whatsNew
            since = migration.sinceDeclared
            run = command?.run
            self.sql = sql
            timeout = command?.timeout
        }
    }

    struct Hook: Encodable {
        var title: String
        var run: String?
        var timeout: Double?
    }

    var app: String
    var appVersion: String
    var appBuild: String?
    var releases: [String]?
    var migrations: [Migration]
    var onUpdate: [Hook]?
    var onBuildUpdate: [Hook]?
}
