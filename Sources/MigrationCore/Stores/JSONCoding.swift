import Foundation

extension JSONEncoder {
    /// The encoder for everything this package writes: ISO 8601 dates, stable key order.
    static var migrationRecords: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return encoder
    }
}

extension JSONEncoder {
    /// The encoder for one line of a records file, and for the history `UserDefaults` keeps:
    /// as ``migrationRecords``, on one line.
    static var migrationLines: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}

extension JSONDecoder {
    static var migrationRecords: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
