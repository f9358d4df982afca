import Foundation

/// The app the switching examples launch: each of its steps notes that it ran.
final class ExampleApp: @unchecked Sendable {
    // Safe: the examples call it on one thread at a time.
    private(set) var ran: [String] = []

    func normaliseDates() { ran.append("1.1 normalise dates") }
    func moveNotesToFolders() { ran.append("1.2 move notes to folders") }
    func rebuildSearchIndex() { ran.append("build 120 rebuild search index") }
    func showWhatsNew() { ran.append("what's new") }
    func refreshCaches() { ran.append("refresh caches") }
}
