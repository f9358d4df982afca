import Foundation

/// What a ``PostgresMigrationStore`` tells listeners when it commits a change: the payload of
/// the `NOTIFY` it sends, inside the transaction that writes, on the schema's channel (see
/// ``channel(forSchema:)``). A ``PostgresChangeListener`` gives them back.
///
/// The payload is JSON, at most 8000 bytes (PostgreSQL's limit):
/// `{"schema":"migration_explorer","domain":"default","kind":"record","versions":["1.1"],"lastMigratedVersion":"1.1","host":"web-1","pid":4121}`.
///
/// ```swift
/// let notice = try PostgresChangeNotice(payload: notification.payload)
/// print("\(notice.kind) of \(notice.domain) by \(notice.host):\(notice.pid)")   // record of default by web-1:4121
/// ```
public struct PostgresChangeNotice: Codable, Sendable, Equatable {
    /// What was committed.
    public enum Kind: String, Codable, Sendable {
        /// Records of a run: migrations or hooks that ran (or failed).
        case record
        /// The marks forgotten (`reset`).
        case reset
        /// The marks set without a run (`set`, or marks written without new records).
        case set
    }

    /// The store's schema.
    public let schema: String
    /// The domain whose records changed (cut to its first 500 characters in a payload that
    /// would be too long).
    public let domain: String
    public let kind: Kind
    /// The versions (and builds) of the migrations recorded as applied, for a ``Kind/record``;
    /// fewer than were recorded when ``moreVersions`` is true.
    public let versions: [String]
    /// Whether more versions were recorded than the payload could hold.
    public let moreVersions: Bool
    /// The store's last migrated version after the change.
    public let lastMigratedVersion: String?
    /// The host and process that committed.
    public let host: String
    public let pid: Int32

    public init(schema: String, domain: String, kind: Kind, versions: [String] = [], moreVersions: Bool = false,
                lastMigratedVersion: String?, host: String, pid: Int32) {
        self.schema = schema
        self.domain = domain
        self.kind = kind
        self.versions = versions
        self.moreVersions = moreVersions
        self.lastMigratedVersion = lastMigratedVersion
        self.host = host
        self.pid = pid
    }

    /// Reads a notification's payload.
    /// - Throws: `DecodingError` for a payload this package did not write.
    public init(payload: String) throws {
        self = try JSONDecoder().decode(Self.self, from: Data(payload.utf8))
    }

    /// The longest payload PostgreSQL takes, in bytes, less one.
    public static let longestPayload = 7999

    /// The notice as a payload within ``longestPayload``: versions dropped from the end, then
    /// the domain and the host cut, until it fits.
    public var payload: String {
        var notice = self
        while true {
            let text = String(decoding: (try? JSONEncoder().encode(notice)) ?? Data(), as: UTF8.self)
            if text.utf8.count <= Self.longestPayload { return text }
            if notice.versions.isEmpty {
                notice = PostgresChangeNotice(schema: schema, domain: String(domain.prefix(500)), kind: kind, moreVersions: !versions.isEmpty,
                                              lastMigratedVersion: lastMigratedVersion.map { String($0.prefix(500)) },
                                              host: String(host.prefix(500)), pid: pid)
                continue
            }
            notice = PostgresChangeNotice(schema: schema, domain: domain, kind: kind, versions: Array(notice.versions.dropLast(notice.versions.count / 2 + 1)),
                                          moreVersions: true, lastMigratedVersion: lastMigratedVersion, host: host, pid: pid)
        }
    }

    /// The channel a store with tables in `schema` notifies on: the schema's name followed by
    /// `_changes` (`migration_explorer_changes`), the name cut to fit PostgreSQL's 63 bytes.
    ///
    /// ```swift
    /// PostgresChangeNotice.channel(forSchema: "migration_explorer")   // "migration_explorer_changes"
    /// ```
    public static func channel(forSchema schema: String) -> String {
        String(decoding: schema.utf8.prefix(63 - 8), as: UTF8.self) + "_changes"
    }
}
