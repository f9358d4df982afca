import Foundation

/// The demo app's data: a JSON document of notes in a sandbox folder, which the demo's
/// migrations really rewrite. A missing file starts as version 0.4 of the demo app wrote it,
/// whatever device the demo simulates, and every migration is safe to run again.
struct DemoNotesFile: Sendable {
    let url: URL

    typealias Note = [String: Any]

    /// The notes as version 0.4 of the demo app wrote them.
    static var original: [Note] {
        [
        ["title": "  Groceries ", "body": "milk, eggs, coffee", "created": "03/02/2021", "tags": "home,errands"],
        ["title": "Trip to Lisbon", "body": "book the train", "created": "17/06/2022", "tags": "travel"],
        ["title": " Ideas", "body": "a tool to see upgrades", "created": "01/11/2023", "tags": "work,someday"],
        ]
    }

    func exists() -> Bool { FileManager.default.fileExists(atPath: url.path) }

    func create() throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try write(Self.original)
    }

    /// Reads the notes, lets `change` rewrite each one, writes them back; returns how many changed.
    @discardableResult
    func rewrite(_ change: (inout Note) throws -> Bool) throws -> Int {
        var notes = try read()
        var changed = 0
        for index in notes.indices where try change(&notes[index]) { changed += 1 }
        try write(notes)
        return changed
    }

    func read() throws -> [Note] {
        if !exists() { try create() }
        let data = try Data(contentsOf: url)
        guard let document = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let notes = document["notes"] as? [Note] else {
            throw DemoFailure("\(url.lastPathComponent) has no \"notes\" list")
        }
        return notes
    }

    private func write(_ notes: [Note]) throws {
        let data = try JSONSerialization.data(withJSONObject: ["notes": notes], options: [.prettyPrinted, .sortedKeys])
        try data.write(to: url, options: .atomic)
    }
}

/// Why a demo migration failed.
struct DemoFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
