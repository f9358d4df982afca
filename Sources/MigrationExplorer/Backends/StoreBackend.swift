import MigrationCore

/// A kind of real store the explorer plays against, as a front end names it: where the store
/// is, which of its domains, what it must be, and how it opens.
///
/// Each kind lives in a folder of its own under `Backends/`: its value conforming to this
/// protocol, a ``StoreLocation`` factory (``StoreLocation/jsonFile(_:domain:)``, …), the store it
/// opens as a ``RealStore``, and its command-line options (a `StoreBackendOptions` group, listed
/// once in `StoreOptions`).
///
/// ```swift
/// let location = StoreLocation.jsonFile("state.json", domain: "beta")
/// print(location.backend.displayPath, location.backend.expected)   // state.json a JSON file (created by the first run)
/// let store = location.open()
/// ```
public protocol StoreBackend: Sendable, Equatable {
    /// How people name it: a file's path, as given; a server's URL, without its password.
    var displayPath: String { get }
    /// What the option names, for errors: "a JSON file (created by the first run)".
    var expected: String { get }
    /// The domain named; `nil` where a store has records without a domain (a preferences plist's
    /// MTMigration keys).
    var domain: String? { get }
    /// Whether a manifest's `"sql"` can run in it: the app's database, whose transaction
    /// records each migration (see ``RealStore/manifestSQL``).
    var runsManifestSQL: Bool { get }
    /// The same store, domain `domain` (`nil`: its default).
    func with(domain: String?) -> Self
    /// The store itself, waiting for another process's locks as `waiting` says (a command's
    /// `--wait SECONDS` or `--no-wait`), whichever way the kind bounds them, and telling it.
    func open(waiting: StoreWaiting) -> any RealStore
}

extension StoreBackend {
    /// The store itself, waiting as long as it takes and telling nobody.
    public func open() -> any RealStore { open(waiting: StoreWaiting()) }

    /// Only a database runs SQL.
    public var runsManifestSQL: Bool { false }

    /// Whether `other` is this same store and domain.
    func isSame(as other: any StoreBackend) -> Bool { (other as? Self) == self }
}
