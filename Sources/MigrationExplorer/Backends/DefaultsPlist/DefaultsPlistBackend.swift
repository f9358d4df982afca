import Foundation
import MigrationCore

/// `--defaults-plist FILE` (and `--simulator`): an app's preferences plist
/// (`PropertyListMigrationStore`), under MTMigration's keys or a domain's.
struct DefaultsPlistBackend: StoreBackend {
    let path: String
    let domain: String?

    var displayPath: String { path }
    var expected: String { "a preferences plist (created by the first write)" }

    func with(domain: String?) -> DefaultsPlistBackend { DefaultsPlistBackend(path: path, domain: domain) }

    func open(waiting: StoreWaiting) -> any RealStore { PropertyListMigrationStore(url: URL(fileURLWithPath: path), domain: domain, waiting: waiting.lockPolicy) }
}

extension StoreLocation {
    /// An app's preferences plist (`PropertyListMigrationStore`): MTMigration's keys, or
    /// domain `domain`'s.
    ///
    /// ```swift
    /// let options = ExplorerOptions(store: .defaultsPlist("Library/Preferences/com.example.notes.plist"))
    /// ```
    public static func defaultsPlist(_ path: String, domain: String? = nil) -> StoreLocation {
        StoreLocation(DefaultsPlistBackend(path: path, domain: domain))
    }
}

/// A plist is named by its path, and a manifest's commands inherit its lock. `set` removes the
/// marks under older spellings of MTMigration's keys.
extension PropertyListMigrationStore: RealStore {
    public var displayPath: String { url.path }
    public var name: String { url.lastPathComponent }
    public func recordedDomains() throws -> [String?] { try domains() }
    /// The plist and its folder watched: the app's own save (a rename over it), a `set`, its deletion.
    public func changes() throws -> AsyncStream<StoreChange> { try FileWatch(files: [url]).storeChanges() }
    public func supersededMarks() throws -> [(key: String, value: String)] { try olderMarkKeys() }
}
