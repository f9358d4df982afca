import Foundation

/// Format 1 of a ``FileMigrationStore``'s file: one JSON document with a format number and one
/// state per domain, history included. Still read; the first write turns it into format 2
/// (see ``RecordsFile``).
enum LegacyDocument {
    static let format = 1

    /// The states of every domain in `data`.
    /// - Throws: ``MigrationStoreError`` when `data` is not such a document.
    static func decode(_ data: Data, location: String) throws -> [String: MigrationState] {
        if let problem = StrictJSON.problem(in: data) {
            throw MigrationStoreError(location: location, problem: .corrupt(problem))
        }
        let document: Document
        do { document = try JSONDecoder.migrationRecords.decode(Document.self, from: data) } catch {
            throw MigrationStoreError(location: location, problem: .corrupt(describe(error)))
        }
        guard document.format == format else {
            throw MigrationStoreError(
                location: location,
                problem: .corrupt("format \(document.format) is not \(RecordsFile.format); written by another release?")
            )
        }
        return document.domains
    }

    /// A decoding error as a person reads it: where, and what is wrong there.
    static func describe(_ error: Error) -> String {
        func path(_ context: DecodingError.Context) -> String { context.codingPath.map(\.stringValue).joined(separator: ".") }
        switch error {
        case DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty:
            return "not valid JSON"
        case DecodingError.dataCorrupted(let context) where context.debugDescription == "unknown field":
            return "unknown field \"\(path(context))\"; nothing is dropped, so fix or remove it"
        case DecodingError.keyNotFound(let key, let context):
            return "missing \"\((context.codingPath + [key]).map(\.stringValue).joined(separator: "."))\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context),
             DecodingError.dataCorrupted(let context):
            return "unexpected value at \"\(path(context))\""
        default:
            return String(describing: error)
        }
    }

    private struct Document: Decodable {
        let format: Int
        let domains: [String: MigrationState]

        init(from decoder: any Decoder) throws {
            let container = try decoder.strictContainer(known: ["format", "domains"])
            format = try container.required(Int.self, "format")
            domains = try container.required([String: MigrationState].self, "domains")
        }
    }
}
