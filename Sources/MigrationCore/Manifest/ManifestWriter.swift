import Foundation

extension MigrationRegistry {
    /// The registry as a manifest (the JSON `migration-explorer --manifest` reads, without
    /// `run`): an app writes it from a unit test or a debug menu, and the explorer shows its
    /// real migrations without building the app for the host. Loading it gives the same plan
    /// for any upgrade.
    ///
    /// ```swift
    /// let data = registry.manifest(appVersion: "1.0", appBuild: "120")
    /// try data.write(to: URL(fileURLWithPath: "/tmp/notes-manifest.json"))
    /// ```
    /// - Parameter releases: the shipped releases (default: ``releases``).
    public func manifest(appVersion: String, appBuild: String? = nil, releases: [Version]? = nil) -> Data {
        let releases = releases ?? self.releases
        let document = ManifestDocument(
            app: appName, appVersion: appVersion, appBuild: appBuild,
            releases: releases.isEmpty ? nil : releases.sorted().map(\.text),
            migrations: migrations.map(ManifestDocument.Migration.init),
            onUpdate: hooks(on: .version), onBuildUpdate: hooks(on: .build)
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Strings and lists of strings only: encoding cannot fail.
        return (try? encoder.encode(document)) ?? Data()
    }

    private func hooks(on track: MigrationTrack) -> [ManifestDocument.Hook]? {
        let titles = hooks.filter { $0.track == track }.map { ManifestDocument.Hook(title: $0.title) }
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

        init(_ migration: RegisteredMigration) {
            if migration.track == .version { version = migration.declared } else { build = migration.declared }
            title = migration.title
            notes = migration.notes
            whatsNew = migration.whatsNew.isEmpty ? nil : migration.whatsNew
            since = migration.sinceDeclared
        }
    }

    struct Hook: Encodable {
        var title: String
    }

    var app: String
    var appVersion: String
    var appBuild: String?
    var releases: [String]?
    var migrations: [Migration]
    var onUpdate: [Hook]?
    var onBuildUpdate: [Hook]?
}
