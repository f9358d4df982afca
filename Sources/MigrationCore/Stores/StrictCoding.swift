import Foundation

/// A coding key for any field name, so that decoders can see every key an object has.
struct AnyCodingKey: CodingKey, Hashable {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension Decoder {
    /// The object's container, after checking that it has no field outside `known`: a field
    /// this package does not know (a misspelling, a newer release's) is an error, never dropped.
    func strictContainer(known: Set<String>) throws -> KeyedDecodingContainer<AnyCodingKey> {
        let container = try container(keyedBy: AnyCodingKey.self)
        if let unknown = container.allKeys.map(\.stringValue).filter({ !known.contains($0) }).sorted().first {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: codingPath + [AnyCodingKey(unknown)],
                debugDescription: "unknown field"
            ))
        }
        return container
    }
}

extension KeyedDecodingContainer where Key == AnyCodingKey {
    func optional<T: Decodable>(_ type: T.Type, _ key: String) throws -> T? {
        try decodeIfPresent(type, forKey: AnyCodingKey(key))
    }

    func required<T: Decodable>(_ type: T.Type, _ key: String) throws -> T {
        try decode(type, forKey: AnyCodingKey(key))
    }
}

extension MigrationState: Codable {
    private static let fields: Set<String> = [
        "lastMigratedVersion", "lastMigratedBuild", "lastAppVersion", "lastAppBuild", "history", "historyIsComplete",
    ]

    /// Decodes a state strictly: an unknown field (`"lastMigratedVersoin"`) or a wrong type
    /// is an error naming it, never ignored.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(known: Self.fields)
        self.init(
            lastMigratedVersion: try container.optional(String.self, "lastMigratedVersion"),
            lastMigratedBuild: try container.optional(String.self, "lastMigratedBuild"),
            lastAppVersion: try container.optional(String.self, "lastAppVersion"),
            lastAppBuild: try container.optional(String.self, "lastAppBuild"),
            history: try container.optional([MigrationRecord].self, "history") ?? [],
            historyIsComplete: try container.optional(Bool.self, "historyIsComplete") ?? false
        )
    }

    /// Encodes the marks that are recorded, the history and ``historyIsComplete``.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        for mark in RecordedMark.allCases { try container.encodeIfPresent(self[mark], forKey: AnyCodingKey(mark.rawValue)) }
        try container.encode(history, forKey: AnyCodingKey("history"))
        try container.encode(historyIsComplete, forKey: AnyCodingKey("historyIsComplete"))
    }
}

extension MigrationRecord: Codable {
    private static let fields: Set<String> = ["subject", "identifier", "title", "date", "duration", "outcome", "error"]

    /// Decodes a record strictly: an unknown field, a missing required one or a wrong type is
    /// an error naming it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(known: Self.fields)
        self.init(
            subject: try container.required(Subject.self, "subject"),
            identifier: try container.optional(String.self, "identifier"),
            title: try container.required(String.self, "title"),
            date: try container.required(Date.self, "date"),
            duration: try container.required(Double.self, "duration"),
            outcome: try container.required(Outcome.self, "outcome"),
            error: try container.optional(String.self, "error")
        )
    }

    /// Encodes every field; `identifier` and `error` only when present.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        try container.encode(subject, forKey: AnyCodingKey("subject"))
        try container.encodeIfPresent(identifier, forKey: AnyCodingKey("identifier"))
        try container.encode(title, forKey: AnyCodingKey("title"))
        try container.encode(date, forKey: AnyCodingKey("date"))
        try container.encode(duration, forKey: AnyCodingKey("duration"))
        try container.encode(outcome, forKey: AnyCodingKey("outcome"))
        try container.encodeIfPresent(error, forKey: AnyCodingKey("error"))
    }
}

extension MigrationAttempt: Codable {
    private static let fields: Set<String> = ["track", "identifier", "title", "appVersion", "appBuild", "date"]
    /// Its start to the millisecond (records keep whole seconds): what tells two attempts of
    /// one second apart.
    private static let dateStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    /// Decodes an attempt strictly: an unknown field, a missing required one or a wrong type is
    /// an error naming it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.strictContainer(known: Self.fields)
        let text = try container.required(String.self, "date")
        guard let date = try? Self.dateStyle.parse(text) else {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: decoder.codingPath + [AnyCodingKey("date")], debugDescription: "not a date: \(text)"))
        }
        self.init(
            track: try container.required(MigrationTrack.self, "track"),
            identifier: try container.required(String.self, "identifier"),
            title: try container.required(String.self, "title"),
            appVersion: try container.optional(String.self, "appVersion"),
            appBuild: try container.optional(String.self, "appBuild"),
            date: date
        )
    }

    /// Encodes the attempt, its start to the millisecond.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        try container.encode(track, forKey: AnyCodingKey("track"))
        try container.encode(identifier, forKey: AnyCodingKey("identifier"))
        try container.encode(title, forKey: AnyCodingKey("title"))
        try container.encodeIfPresent(appVersion, forKey: AnyCodingKey("appVersion"))
        try container.encodeIfPresent(appBuild, forKey: AnyCodingKey("appBuild"))
        try container.encode(Self.dateStyle.format(date), forKey: AnyCodingKey("date"))
    }
}
