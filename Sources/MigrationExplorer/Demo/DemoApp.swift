import Foundation
import MigrationCore

/// The built-in demo: "Notes", a small app upgrading from 0.8 (build 90) to 1.0 (build 100),
/// whose migrations rewrite a real JSON file in a sandbox folder and log what they did.
///
/// ```swift
/// let app = DemoApp.make(failing: try Version("0.10"))   // 0.10 throws, to show a failure
/// ```
public enum DemoApp {
    /// - Parameters:
    ///   - dataFolder: where the demo's `notes.json` lives (a fresh temporary folder by default).
    ///   - failing: the version whose migration should throw, to show the failure path.
    public static func make(dataFolder: URL? = nil, failing: Version? = nil) -> ExplorerApp {
        let folder = dataFolder ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("migration-explorer-demo-\(ProcessInfo.processInfo.processIdentifier)")
        let notes = DemoNotesFile(url: folder.appendingPathComponent("notes.json"))
        var registry = MigrationRegistry(appName: "Notes")
        func version(_ declared: String, _ title: String, notes text: String, whatsNew: [String] = [],
                     body: @escaping @Sendable (DemoNotesFile, MigrationContext) throws -> Void) {
            let fails = failing.map { (try? Version(declared)) == $0 } ?? false
            registry.migrate(toVersion: declared, title: title, notes: text, whatsNew: whatsNew) { context in
                if fails { throw DemoFailure("\(title) failed: the demo was started with --fail \(declared)") }
                try body(notes, context)
            }
        }

        version("0.5", "Create the notes store", notes: "Writes notes.json with the notes version 0.4 kept in memory.") { file, context in
            guard !file.exists() else { return context.log("notes.json already exists") }
            try file.create()
            context.log("created \(file.url.path) with \(DemoNotesFile.original.count) notes")
        }
        version("0.8", "Rename \"body\" to \"text\"", notes: "The editor now calls a note's content its text.") { file, context in
            let changed = try file.rewrite { note in
                guard let body = note.removeValue(forKey: "body") else { return false }
                note["text"] = body
                return true
            }
            context.log("renamed body → text in \(changed) notes")
        }
        version("0.9", "Add GUIDs to notes", notes: "Every note gets a stable identifier, needed to sync.",
                whatsNew: ["Your notes now sync across all your devices."]) { file, context in
            let changed = try file.rewrite { note in
                guard note["id"] == nil else { return false }
                note["id"] = UUID().uuidString
                return true
            }
            context.log("added a GUID to \(changed) notes")
        }
        version("0.10", "Normalise dates to ISO 8601", notes: "Dates were day/month/year strings; now they are ISO 8601.",
                whatsNew: ["Dates are shown in your own locale."]) { file, context in
            let changed = try file.rewrite { note in
                guard let date = note["created"] as? String, date.contains("/") else { return false }
                let parts = date.split(separator: "/")
                guard parts.count == 3 else { throw DemoFailure("cannot read the date \"\(date)\"") }
                note["created"] = "\(parts[2])-\(parts[1])-\(parts[0])"
                return true
            }
            context.log("rewrote \(changed) dates as ISO 8601")
        }
        version("1.0", "Split tags into lists", notes: "Tags were one comma-separated string.",
                whatsNew: ["Give a note as many tags as you like.", "Filter your notes by tag."]) { file, context in
            let changed = try file.rewrite { note in
                guard let tags = note["tags"] as? String else { return false }
                note["tags"] = tags.split(separator: ",").map { String($0) }
                return true
            }
            context.log("split the tags of \(changed) notes")
        }
        version("0.7", "Trim spaces around titles", notes: "Declared after 1.0 on purpose: it still runs in version order.") { file, context in
            let changed = try file.rewrite { note in
                guard let title = note["title"] as? String else { return false }
                let trimmed = title.trimmingCharacters(in: .whitespaces)
                note["title"] = trimmed
                return trimmed != title
            }
            context.log("trimmed \(changed) titles")
        }
        version("1.1", "Encrypt notes at rest", notes: "Ships with 1.1: above the app version, so it does not run yet.",
                whatsNew: ["Your notes are encrypted on disk."]) { _, context in
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
        return ExplorerApp(registry: registry, appVersion: "1.0", appBuild: "100", defaultFrom: "0.8", defaultFromBuild: "90")
    }
}
