import Foundation
import MigrationCore

/// The demo app's data: a JSON document of notes in a sandbox folder, which the demo's
/// migrations really rewrite. Until a migration reads it, the file does not exist; the first
/// read writes it as the device the explorer plays has it: the notes of version 0.4, with
/// every demo change up to the device's version already made. Every change is safe to make
/// again.
final class DemoNotesFile: Sendable {
    let url: URL
    /// The changes the demo's migrations make, by version, in version order.
    let changes: [(version: Version, change: @Sendable (inout Note) throws -> Bool)]
    /// The version of the device the demo plays.
    private let device = Locked<Version?>(nil)

    typealias Note = [String: Any]

    init(url: URL, changes: [(version: Version, change: @Sendable (inout Note) throws -> Bool)]) {
        self.url = url
        self.changes = changes.sorted { $0.version < $1.version }
    }

    /// The notes as version 0.4 of the demo app wrote them.
    static var original: [Note] {
        [
        ["title": "  Groceries ", "body": "milk, eggs, coffee", "created": "03/02/2021", "tags": "home,errands"],
        ["title": "Trip to Lisbon", "body": "book the train", "created": "17/06/2022", "tags": "travel"],
        ["title": " Ideas", "body": "a tool to see upgrades", "created": "01/11/2023", "tags": "work,someday"],
        ]
    }

    /// Forgets the file: the next read writes it as a device that last migrated at `version`
    /// has it (`nil`: a fresh install, whose notes are still those of 0.4).
    func prepare(asOf version: Version?) {
        device.withLock { $0 = version }
        try? FileManager.default.removeItem(at: url)
    }

    func exists() -> Bool { FileManager.default.fileExists(atPath: url.path) }

    /// Writes the notes of 0.4.
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
        if !exists() { try materialise() }
        let data = try Data(contentsOf: url)
        guard let document = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let notes = document["notes"] as? [Note] else {
            throw DemoFailure("\(url.lastPathComponent) has no \"notes\" list")
        }
        return notes
    }

    /// Writes the file as the device has it: 0.4's notes with every change up to its version.
    private func materialise() throws {
        try create()
        guard let version = device.value else { return }
        for (declared, change) in changes where declared <= version { try rewrite(change) }
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
