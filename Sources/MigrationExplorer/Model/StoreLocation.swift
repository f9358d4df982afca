import Foundation
import MigrationCore

/// A real store the explorer plays against, as a front end names it: a JSON state file
/// (`--store`) or an app's preferences plist (`--defaults-plist`, `--simulator`).
///
/// ```swift
/// let options = ExplorerOptions(store: .defaultsPlist("Library/Preferences/com.example.notes.plist"))
/// ```
public enum StoreLocation: Sendable, Equatable {
    /// A ``FileMigrationStore``: a JSON file and one of its domains.
    case jsonFile(String, domain: String = FileMigrationStore.defaultDomain)
    /// A ``PropertyListMigrationStore``: MTMigration's keys, or a domain's.
    case defaultsPlist(String, domain: String? = nil)

    /// The file's path, as given.
    public var path: String {
        switch self {
        case .jsonFile(let path, _), .defaultsPlist(let path, _): path
        }
    }

    /// What the file must be, for errors: "a JSON file (created by the first run)".
    var expected: String {
        switch self {
        case .jsonFile: "a JSON file (created by the first run)"
        case .defaultsPlist: "a preferences plist (created by the first write)"
        }
    }

    /// The same file, domain `domain` (`nil`: a state file's default, a plist's MTMigration keys).
    public func with(domain: String?) -> StoreLocation {
        switch self {
        case .jsonFile(let path, _): .jsonFile(path, domain: domain ?? FileMigrationStore.defaultDomain)
        case .defaultsPlist(let path, _): .defaultsPlist(path, domain: domain)
        }
    }

    /// The store on the file.
    public func open() -> any FileBackedStore {
        switch self {
        case .jsonFile(let path, let domain): FileMigrationStore(url: URL(fileURLWithPath: path), domain: domain)
        case .defaultsPlist(let path, let domain): PropertyListMigrationStore(url: URL(fileURLWithPath: path), domain: domain)
        }
    }
}
