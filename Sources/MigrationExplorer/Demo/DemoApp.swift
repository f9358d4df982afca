import Foundation
import MigrationCore

/// The built-in demo: "Notes", a small app upgrading from 0.8 (build 90) to 1.0 (build 100),
/// whose migrations rewrite a real JSON file in a sandbox folder and log what they did. Each
/// device the explorer plays starts with the notes such a device has. It shipped 0.5 (build 50),
/// 0.8 (90), 0.9 (95) and 0.10 (98), so the upgrade matrix shows each of them; 0.7 shipped late,
/// in 1.0, so devices already past it never run it (out of order).
///
/// ```swift
/// let app = DemoApp.make(failing: try Version("0.10"))   // 0.10 throws, to show a failure
/// ```
public enum DemoApp {
    /// A change the demo makes to every note; returns whether the note changed.
    typealias Change = @Sendable (inout DemoNotesFile.Note) throws -> Bool

    /// The demo app, its notes in `dataFolder`.
    ///
    /// ```swift
    /// let explorer = try Explorer(app: DemoApp.make(), options: ExplorerOptions())
    /// ```
    /// - Parameters:
    ///   - dataFolder: where the demo's `notes.json` lives (by default a fresh temporary
    ///     folder, removed when the process exits).
    ///   - failing: the version whose migration should throw, to show the failure path.
    public static func make(dataFolder: URL? = nil, failing: Version? = nil) -> ExplorerApp {
        let folder = dataFolder ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("migration-explorer-demo-\(ProcessInfo.processInfo.processIdentifier)")
        if dataFolder == nil { TemporaryFolders.removeAtExit(folder) }
        let changes = Self.changes
        let notes = DemoNotesFile(url: folder.appendingPathComponent("notes.json"), changes: changes.compactMap { change in
            (try? Version(change.version)).map { ($0, change.change) }
        })
        var registry = MigrationRegistry(appName: "Notes")
        // 0.7 was added in 1.0: devices past 0.7 by then never run it.
        let since = ["0.7": "1.0"]
        func version(_ declared: String, _ title: String, notes text: String, whatsNew: [String] = [],
                     body: @escaping @Sendable (DemoNotesFile, MigrationContext) throws -> Void) {
            let fails = failing.map { (try? Version(declared)) == $0 } ?? false
            registry.migrate(toVersion: declared, title: title, notes: text, whatsNew: whatsNew, since: since[declared]) { context in
                if fails { throw DemoFailure("\(title) failed: the demo was started with --fail \(declared)") }
                try body(notes, context)
            }
        }
        func change(_ declared: String) {
            guard let change = changes.first(where: { $0.version == declared }) else { return }
            version(declared, change.title, notes: change.notes, whatsNew: change.whatsNew) { file, context in
                context.log(change.log(try file.rewrite(change.change)))
            }
        }

        registry.releases = Self.releases.map(\.version)
        version("0.5", "Create the notes store", notes: "Writes notes.json with the notes version 0.4 kept in memory.") { file, context in
            guard !file.exists() else { return context.log("notes.json already exists") }
            try file.create()
            context.log("created \(file.url.path) with \(DemoNotesFile.original.count) notes")
        }
        for declared in ["0.8", "0.9", "0.10", "1.0", "0.7"] { change(declared) }
        version("1.1", "Encrypt notes at rest", notes: "Ships with 1.1.", whatsNew: ["Your notes are encrypted on disk."]) { _, context in
            context.log("encrypted notes")
        }
        version("1.2", "Move attachments to their own folder", notes: "Ships with 1.2.") { _, context in
            context.log("moved attachments")
        }
        registry.migrate(toBuild: "95", title: "Rebuild the search index", notes: "Build 95 changed the index format.") { context in
            let count = try notes.read().count
            context.log("indexed \(count) notes")
        }
        registry.migrate(toBuild: "100", title: "Clear the thumbnail cache", notes: "Build 100 renders sharper thumbnails.") { context in
            context.log("cleared 0 thumbnails (the demo has none)")
        }
        registry.onUpdate(title: "Show What's New") { context in
            context.log("What's New for \(context.to) queued for the next launch")
        }
        registry.onBuildUpdate(title: "Refresh bundled templates") { context in
            context.log("templates refreshed for build \(context.to)")
        }
        var app = ExplorerApp(registry: registry, appVersion: "1.0", appBuild: "100", defaultFrom: "0.8", defaultFromBuild: "90") { state in
            notes.prepare(asOf: state.lastMigratedVersion.flatMap { try? Version($0) })
        }
        app.releaseBuilds = Dictionary(uniqueKeysWithValues: Self.releases)
        return app
    }

    /// The releases the demo shipped, each with its build.
    private static let releases: [(version: Version, build: Version)] = [("0.5", "50"), ("0.8", "90"), ("0.9", "95"), ("0.10", "98")]
        .compactMap { version, build in
            guard let version = try? Version(version), let build = try? Version(build) else { return nil }
            return (version, build)
        }

    /// The demo's changes to the notes, each a migration.
    private static let changes: [(version: String, title: String, notes: String, whatsNew: [String], log: @Sendable (Int) -> String, change: Change)] = [
        ("0.8", "Rename \"body\" to \"text\"", "The editor now calls a note's content its text.", [],
         { "renamed body → text in \($0) notes" }, { note in
            guard let body = note.removeValue(forKey: "body") else { return false }
            note["text"] = body
            return true
        }),
        ("0.9", "Add GUIDs to notes", "Every note gets a stable identifier, needed to sync.",
         ["Your notes now sync across all your devices."], { "added a GUID to \($0) notes" }, { note in
            guard note["id"] == nil else { return false }
            note["id"] = UUID().uuidString
            return true
        }),
        ("0.10", "Normalise dates to ISO 8601", "Dates were day/month/year strings; now they are ISO 8601.",
         ["Dates are shown in your own locale."], { "rewrote \($0) dates as ISO 8601" }, { note in
            guard let date = note["created"] as? String, date.contains("/") else { return false }
            let parts = date.split(separator: "/")
            guard parts.count == 3 else { throw DemoFailure("cannot read the date \"\(date)\"") }
            note["created"] = "\(parts[2])-\(parts[1])-\(parts[0])"
            return true
        }),
        ("1.0", "Split tags into lists", "Tags were one comma-separated string.",
         ["Give a note as many tags as you like.", "Filter your notes by tag."], { "split the tags of \($0) notes" }, { note in
            guard let tags = note["tags"] as? String else { return false }
            note["tags"] = tags.split(separator: ",").map { String($0) }
            return true
        }),
        ("0.7", "Trim spaces around titles",
         "Added in 1.0 and declared after it on purpose: it runs in version order, but a device already past 0.7 never runs it (out of order).", [],
         { "trimmed \($0) titles" }, { note in
            guard let title = note["title"] as? String else { return false }
            let trimmed = title.trimmingCharacters(in: .whitespaces)
            note["title"] = trimmed
            return trimmed != title
        }),
    ]
}
