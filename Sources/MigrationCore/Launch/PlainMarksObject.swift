import Foundation

/// The marks object at the start of a file store's marks line when it is as this package
/// writes it (no escapes, ASCII, known fields), read without a JSON decoder, whose first use
/// costs a launch more than the rest of reading the file (see ``LaunchCheck``).
enum PlainMarksObject {
    /// The four marks (in the order of ``RecordedMark/allCases``) and whether the history is
    /// complete; `nil` when `bytes` is not plain, for the decoder to read (and report on).
    static func parse(_ bytes: Data) -> (values: [String?], historyIsComplete: Bool)? {
        var values: [String?] = [nil, nil, nil, nil]
        var complete: Bool?
        var index = bytes.startIndex
        func next() -> UInt8? { index < bytes.endIndex ? bytes[index] : nil }
        func take(_ expected: UInt8) -> Bool {
            guard next() == expected else { return false }
            index += 1
            return true
        }
        func quoted() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            let start = index
            while let byte = next(), byte != UInt8(ascii: "\"") {
                guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\\") else { return nil }
                index += 1
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            return take(UInt8(ascii: "\"")) ? text : nil
        }
        guard take(UInt8(ascii: "{")) else { return nil }
        repeat {
            guard let key = quoted(), take(UInt8(ascii: ":")) else { return nil }
            if key == "historyIsComplete" {
                guard complete == nil, let first = next() else { return nil }
                let word = first == UInt8(ascii: "t") ? "true" : "false"
                guard bytes[index...].starts(with: word.utf8) else { return nil }
                index += word.utf8.count
                complete = word == "true"
            } else {
                guard let mark = RecordedMark(rawValue: key), values[mark.index] == nil, let value = quoted() else { return nil }
                values[mark.index] = value
            }
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")), let complete else { return nil }
        return (values, complete)
    }
}
