import Foundation

/// How long a store waits for a lock that another process (or another connection to its
/// database) holds before it gives up with ``MigrationStoreError/Problem/busy(_:)``, which
/// names the holder where the system tells it: as long as it takes (an app's launch), up to a
/// duration, or not at all. Every store that can meet another process's lock takes it under
/// one label, `lockPatience:`.
///
/// ```swift
/// let file = FileMigrationStore(url: stateURL, lockPatience: .upTo(.seconds(30)))
/// let plist = PropertyListMigrationStore(url: preferencesURL, lockPatience: .noWait)
/// // SQLiteMigrationStore(path: databasePath, lockPatience: .upTo(.seconds(30)))
/// // PostgresMigrationStore(server: server, lockPatience: .upTo(.seconds(30)))
/// ```
public struct LockPatience: Sendable, Hashable, CustomStringConvertible {
    /// How long to wait; `nil`: as long as it takes; zero: not at all.
    public let limit: Duration?

    private init(limit: Duration?) { self.limit = limit }

    /// Waits as long as it takes: what an app's launch must do, and every store's default.
    public static let forever = LockPatience(limit: nil)

    /// Gives up at once when another process holds the lock.
    public static let noWait = LockPatience(limit: .zero)

    /// Waits up to `limit` (a negative one counts as zero), then gives up.
    ///
    /// ```swift
    /// let patience = LockPatience.upTo(.milliseconds(200))
    /// ```
    public static func upTo(_ limit: Duration) -> LockPatience {
        LockPatience(limit: max(limit, .zero))
    }

    /// "as long as it takes", "not at all", "up to 0.2 s".
    public var description: String {
        guard let limit else { return "as long as it takes" }
        return limit == .zero ? "not at all" : "up to \(Self.text(limit))"
    }

    /// How a busy error ends once this patience ran out: "did not wait", "gave up waiting after 0.2 s".
    package var gaveUp: String {
        guard let limit else { return "gave up waiting" }
        return limit == .zero ? "did not wait" : "gave up waiting after \(Self.text(limit))"
    }

    /// ``limit`` in seconds; `nil`: as long as it takes.
    package var seconds: Double? { limit.map(Self.seconds) }

    private static func seconds(_ limit: Duration) -> Double {
        Double(limit.components.seconds) + Double(limit.components.attoseconds) / 1e18
    }

    /// "0.2 s", "30 s".
    private static func text(_ limit: Duration) -> String {
        "\(String(format: "%g", seconds(limit))) s"
    }
}
