import MigrationCore

/// A real store the explorer plays against, as a front end names it: one of the kinds under
/// `Backends/` (``StoreBackend``), each with a factory of its own: a JSON state file
/// (``jsonFile(_:domain:)``), an app's preferences plist (``defaultsPlist(_:domain:)``), an app's
/// SQLite database (`sqlite(_:domain:)`, with the `SQLite` trait) or a PostgreSQL database
/// (`postgres(_:schema:domain:)`, with the `PostgreSQL` trait).
///
/// ```swift
/// let options = ExplorerOptions(store: .defaultsPlist("Library/Preferences/com.example.notes.plist"))
/// ```
public struct StoreLocation: Sendable, Equatable {
    /// The store's kind, place and domain.
    public let backend: any StoreBackend

    /// The store `backend` names.
    public init(_ backend: some StoreBackend) {
        self.backend = backend
    }

    /// How every command names records without a domain (a preferences plist's MTMigration
    /// keys: `MTMigration.lastMigrationVersion`, …), which no `--domain` names.
    static let mtMigrationKeys = "MTMigration's keys"

    /// The file's path, as given; a server's URL, without its password.
    public var path: String { backend.displayPath }

    /// The same store, domain `domain` (`nil`: a state file's default, a plist's MTMigration keys).
    public func with(domain: String?) -> StoreLocation { StoreLocation(backend.with(domain: domain)) }

    /// The store itself, waiting for another process as `waiting` says (see ``StoreBackend/open(waiting:)``).
    public func open(waiting: StoreWaiting = StoreWaiting()) -> any RealStore { backend.open(waiting: waiting) }

    public static func == (lhs: StoreLocation, rhs: StoreLocation) -> Bool { lhs.backend.isSame(as: rhs.backend) }
}
