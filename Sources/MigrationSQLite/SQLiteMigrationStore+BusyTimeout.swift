import Foundation
import MigrationCore

extension SQLiteMigrationStore {
    /// A store in the database at `path`, under `domain`, that waits up to `busyTimeout` seconds
    /// for another connection's lock.
    ///
    /// ```swift
    /// let store = SQLiteMigrationStore(path: databasePath, lockPatience: .upTo(.seconds(10)))   // rather than busyTimeout: 10
    /// ```
    @available(*, deprecated, message: "use init(path:domain:lockPatience:) with .upTo(.seconds(busyTimeout)), the patience every store takes")
    public convenience init(path: String, domain: String = SQLiteMigrationStore.defaultDomain, busyTimeout: TimeInterval) {
        self.init(path: path, domain: domain, lockPatience: .upTo(.milliseconds((busyTimeout * 1_000).rounded(.up))))
    }

    /// Seconds the store waits for another connection's lock; infinity: as long as it takes.
    @available(*, deprecated, message: "use lockPatience, the patience every store takes")
    public var busyTimeout: TimeInterval { lockPatience.seconds ?? .infinity }
}
