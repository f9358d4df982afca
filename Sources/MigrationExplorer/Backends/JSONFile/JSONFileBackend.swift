import Foundation
import MigrationCore

/// `--store FILE`: a JSON state file (`FileMigrationStore`) and one of its domains.
struct JSONFileBackend: StoreBackend {
    let path: String
    let domainName: String

    var displayPath: String { path }
    var expected: String { "a JSON file (created by the first run)" }
    var domain: String? { domainName }

    func with(domain: String?) -> JSONFileBackend {
        JSONFileBackend(path: path, domainName: domain ?? FileMigrationStore.defaultDomain)
    }

    func open(waiting: StoreWaiting) -> any RealStore { FileMigrationStore(url: URL(fileURLWithPath: path), domain: domainName, waiting: waiting.lockPolicy) }
}

extension StoreLocation {
    /// A JSON state file of migration records (`FileMigrationStore`), domain `domain`.
    ///
    /// ```swift
    /// let options = ExplorerOptions(store: .jsonFile("state.json"))
    /// ```
    public static func jsonFile(_ path: String, domain: String = FileMigrationStore.defaultDomain) -> StoreLocation {
        StoreLocation(JSONFileBackend(path: path, domainName: domain))
    }
}

/// A state file is named by its path, and a manifest's commands inherit its lock.
extension FileMigrationStore: RealStore {
    public var displayPath: String { url.path }
    public var name: String { url.lastPathComponent }
    public func recordedDomains() throws -> [String?] { try domains() }
    /// The file and its folder watched: a rename over it, a write, its deletion.
    public func changes() throws -> AsyncStream<StoreChange> { try FileWatch(files: [url]).storeChanges() }
}
