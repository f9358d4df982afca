import Foundation
import MigrationCore

/// Reads a JSON manifest into a ``MigrationManifest``, for apps whose migrations are not in
/// Swift, and for an app's own registry written by `MigrationRegistry.manifest(appVersion:appBuild:releases:commands:)`.
///
/// ```json
/// { "app": "Notes", "appVersion": "1.0", "appBuild": "120", "releases": ["0.8", "0.9", "1.0"],
///   "migrations": [ { "version": "0.9", "title": "Add GUIDs", "run": "./scripts/add-guids.sh", "timeout": 60 },
///                   { "version": "0.7", "title": "Trim titles", "since": "1.0" },
///                   { "version": "1.0", "title": "Pin notes", "sql": "ALTER TABLE note ADD pinned INTEGER" } ],
///   "onUpdate": [ { "title": "Reset statistics", "run": "…" } ] }
/// ```
///
/// ```swift
/// let manifest = try Manifest.load(path: "manifest.json")
/// let plan = try MigrationPlan(registry: manifest.registry, state: .freshInstall,
///                              target: try AppTarget(version: manifest.appVersion))
/// ```
public enum Manifest {
    /// Loads and checks the manifest at `path`; `commands` turns each `run` into a body, and
    /// `sql` each `sql` (default: bodies that fail, saying they need `migration-explorer`).
    ///
    /// ```swift
    /// let manifest = try Manifest.load(path: "Examples/notes/manifest.json")
    /// let plan = try MigrationRunner(registry: manifest.registry, target: try AppTarget(version: manifest.appVersion))
    ///     .plan(.freshInstall)
    /// ```
    /// - Throws: ``ManifestError`` listing every problem (unreadable file, a directory, FIFO or
    ///   device instead of a file, bad JSON, unknown field, missing title, both or neither of
    ///   version/build, malformed or duplicate version, a `since` or release that is not a
    ///   version, a `timeout` that is not a positive number, a control character in a `run`).
    public static func load(
        path: String, commands: @escaping ManifestCommand.Runner = ManifestCommand.unavailable,
        sql: @escaping ManifestSQL.Runner = ManifestSQL.unavailable
    ) throws(ManifestError) -> MigrationManifest {
        let url = URL(fileURLWithPath: path)
        let data: Data?
        do { data = try RegularFile.contents(at: path) } catch {
            let message = switch error {
            case .notAFile(let kind): "is \(kind), not a manifest file"
            case .unreadable(let why): "cannot be read (\(why))"
            }
            throw ManifestError(path: path, problems: [.init(field: "file", message: message)])
        }
        guard let data else { throw ManifestError(path: path, problems: [.init(field: "file", message: "no such file")]) }
        return try parse(data, path: path, folder: url.deletingLastPathComponent(), commands: commands, sql: sql)
    }

    /// Checks manifest `data`; `run` commands will run in `folder`. `path` names the manifest
    /// in errors.
    ///
    /// ```swift
    /// let manifest = try Manifest.parse(data, path: "notes.json", folder: URL(filePath: "/srv/notes"))
    /// ```
    /// - Throws: ``ManifestError`` listing every problem, as ``load(path:commands:sql:)`` does.
    public static func parse(
        _ data: Data, path: String, folder: URL, commands: @escaping ManifestCommand.Runner = ManifestCommand.unavailable,
        sql: @escaping ManifestSQL.Runner = ManifestSQL.unavailable
    ) throws(ManifestError) -> MigrationManifest {
        let parsed: (value: ManifestValue, lenientAt: String?)
        do { parsed = try ManifestValue.parse(data) } catch {
            throw ManifestError(path: path, problems: [.init(field: "file", message: "is not valid JSON (\(error))")])
        }
        if let place = parsed.lenientAt, let problem = StrictJSON.problem(in: data) {
            throw ManifestError(path: path, problems: [.init(field: "file", message: "is not strict JSON at \(place): \(problem)")])
        }
        let json = parsed.value
        var reader = ManifestReader(folder: folder, commands: commands, sql: sql)
        let app = reader.read(json)
        guard reader.problems.isEmpty, let app else { throw ManifestError(path: path, problems: reader.problems) }
        return app
    }
}

/// A JSON value as a manifest holds it: an object keeps its fields in order (a repeated key:
/// the last one counts), a number keeps its text.
///
/// Parsed in one pass over the bytes, without `JSONSerialization`'s Objective-C objects and
/// the casts that read them back, since a manifest can hold 100,000 migrations. What a lenient
/// reader accepts (a repeated key, a comma before `}` or `]`) parses, and is flagged so that
/// ``StrictJSON`` can say what and where.
enum ManifestValue {
    case object([(key: String, value: ManifestValue)])
    case array([ManifestValue])
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    /// The value of field `key` of an object; `nil` when absent or not an object.
    subscript(key: String) -> ManifestValue? {
        guard case .object(let fields) = self else { return nil }
        return fields.last { $0.key == key }?.value
    }

    /// The value as JSON text, an object's keys sorted: how messages quote a bad value.
    var rendered: String {
        switch self {
        case .object(let fields):
            let latest = Dictionary(fields.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
            return "{" + latest.keys.sorted().map { "\(ManifestValue.string($0).rendered):\(latest[$0]!.rendered)" }.joined(separator: ",") + "}"
        case .array(let items): return "[" + items.map(\.rendered).joined(separator: ",") + "]"
        case .number(let text): return text
        case .bool(let value): return value ? "true" : "false"
        case .null: return "null"
        case .string(let text):
            var quoted = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": quoted += "\\\""
                case "\\": quoted += "\\\\"
                case "\n": quoted += "\\n"
                case "\t": quoted += "\\t"
                case "\r": quoted += "\\r"
                case _ where scalar.value < 0x20: quoted += String(format: "\\u%04x", scalar.value)
                default: quoted.unicodeScalars.append(scalar)
                }
            }
            return quoted + "\""
        }
    }

    /// The value as a message quotes it: ``rendered``, cut when long.
    var quoted: String { rendered.shortenedForMessage }

    /// Where and why the text is not JSON.
    struct SyntaxError: Error, CustomStringConvertible {
        let description: String
    }

    /// Parses JSON text (RFC 8259): one value, surrounded by whitespace at most, after a UTF-8
    /// byte order mark if there is one (which RFC 8259 lets a parser ignore); and where its
    /// first repeated key or trailing comma is (`line 3, column 7`), if it has one.
    static func parse(_ data: Data) throws(SyntaxError) -> (value: ManifestValue, lenientAt: String?) {
        let result: Result<(ManifestValue, String?), SyntaxError> = data.withUnsafeBytes { raw in
            var parser = Parser(bytes: raw.bindMemory(to: UInt8.self))
            if parser.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.position = 3 }
            do throws(SyntaxError) {
                let value = try parser.value(depth: 0)
                parser.skipWhitespace()
                if parser.position < parser.bytes.count { throw parser.error("unexpected text after the value") }
                return .success((value, parser.firstLeniency.map(parser.place(of:))))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0
        /// Where the first repeated key (its opening quote) or trailing comma (the bracket
        /// after it) is, when there is one.
        var firstLeniency: Int?
        /// Deeper nesting is refused rather than overflowing the stack.
        static let maximumDepth = 512

        mutating func value(depth: Int) throws(SyntaxError) -> ManifestValue {
            skipWhitespace()
            guard position < bytes.count else { throw error("unexpected end of the text") }
            guard depth < Self.maximumDepth else { throw error("nested deeper than \(Self.maximumDepth) levels") }
            switch bytes[position] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try literal("true", .bool(true))
            case UInt8(ascii: "f"): return try literal("false", .bool(false))
            case UInt8(ascii: "n"): return try literal("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw error("unexpected character")
            }
        }

        private mutating func object(depth: Int) throws(SyntaxError) -> ManifestValue {
            position += 1
            var fields: [(key: String, value: ManifestValue)] = []
            skipWhitespace()
            if consume(UInt8(ascii: "}")) { return .object(fields) }
            repeat {
                skipWhitespace()
                if consume(UInt8(ascii: "}")) {
                    noteLeniency(at: position - 1)
                    return .object(fields)
                }
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw error("expected a quoted field name") }
                let keyStart = position
                let key = try string()
                skipWhitespace()
                guard consume(UInt8(ascii: ":")) else { throw error("expected \":\" after a field name") }
                if fields.contains(where: { $0.key == key }) { noteLeniency(at: keyStart) }
                fields.append((key, try value(depth: depth + 1)))
                skipWhitespace()
            } while consume(UInt8(ascii: ","))
            guard consume(UInt8(ascii: "}")) else { throw error("expected \",\" or \"}\" in an object") }
            return .object(fields)
        }

        private mutating func array(depth: Int) throws(SyntaxError) -> ManifestValue {
            position += 1
            var items: [ManifestValue] = []
            skipWhitespace()
            if consume(UInt8(ascii: "]")) { return .array(items) }
            repeat {
                skipWhitespace()
                if consume(UInt8(ascii: "]")) {
                    noteLeniency(at: position - 1)
                    return .array(items)
                }
                items.append(try value(depth: depth + 1))
                skipWhitespace()
            } while consume(UInt8(ascii: ","))
            guard consume(UInt8(ascii: "]")) else { throw error("expected \",\" or \"]\" in a list") }
            return .array(items)
        }

        /// A quoted string; `position` is at its opening quote.
        private mutating func string() throws(SyntaxError) -> String {
            position += 1
            let start = position
            var isASCII = true
            while position < bytes.count {
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    let text = try decoded(UnsafeBufferPointer(rebasing: bytes[start..<position]), isASCII: isASCII)
                    position += 1
                    return text
                }
                if byte == UInt8(ascii: "\\") { return try escapedString(from: start) }
                if byte < 0x20 { throw error("a control character in a string must be escaped") }
                if byte >= 0x80 { isASCII = false }
                position += 1
            }
            throw error("a string is not closed")
        }

        /// A string with escapes, from its first character at `start`.
        private mutating func escapedString(from start: Int) throws(SyntaxError) -> String {
            var utf8: [UInt8] = Array(bytes[start..<position])
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                switch byte {
                case UInt8(ascii: "\""):
                    guard let text = String(bytes: utf8, encoding: .utf8) else { throw error("a string is not valid UTF-8") }
                    return text
                case UInt8(ascii: "\\"):
                    guard position < bytes.count else { break }
                    let escape = bytes[position]
                    position += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                    case UInt8(ascii: "b"): utf8.append(0x08)
                    case UInt8(ascii: "f"): utf8.append(0x0C)
                    case UInt8(ascii: "n"): utf8.append(0x0A)
                    case UInt8(ascii: "r"): utf8.append(0x0D)
                    case UInt8(ascii: "t"): utf8.append(0x09)
                    case UInt8(ascii: "u"): utf8.append(contentsOf: String(try unicodeEscape()).utf8)
                    default: throw error("unknown escape")
                    }
                case 0..<0x20:
                    throw error("a control character in a string must be escaped")
                default:
                    utf8.append(byte)
                }
            }
            throw error("a string is not closed")
        }

        /// The character of a `\\uXXXX` escape (two for a surrogate pair); `position` is after the `u`.
        private mutating func unicodeEscape() throws(SyntaxError) -> Character {
            let first = try hexQuad()
            if (0xD800..<0xDC00).contains(first) {
                guard consume(UInt8(ascii: "\\")), consume(UInt8(ascii: "u")) else { throw error("a lone surrogate in a \\u escape") }
                let second = try hexQuad()
                guard (0xDC00..<0xE000).contains(second),
                      let scalar = Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)) else {
                    throw error("a bad surrogate pair in a \\u escape")
                }
                return Character(scalar)
            }
            guard let scalar = Unicode.Scalar(first) else { throw error("a lone surrogate in a \\u escape") }
            return Character(scalar)
        }

        private mutating func hexQuad() throws(SyntaxError) -> UInt32 {
            guard position + 4 <= bytes.count else { throw error("a \\u escape needs four hex digits") }
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let digit = Character(Unicode.Scalar(bytes[position])).hexDigitValue else {
                    throw error("a \\u escape needs four hex digits")
                }
                value = value << 4 | UInt32(digit)
                position += 1
            }
            return value
        }

        /// The text of `utf8`, which must be valid UTF-8.
        private func decoded(_ utf8: UnsafeBufferPointer<UInt8>, isASCII: Bool) throws(SyntaxError) -> String {
            if isASCII { return String(decoding: utf8, as: UTF8.self) }
            guard let text = String(bytes: utf8, encoding: .utf8) else { throw error("a string is not valid UTF-8") }
            return text
        }

        private mutating func number() throws(SyntaxError) -> ManifestValue {
            let start = position
            _ = consume(UInt8(ascii: "-"))
            if !consume(UInt8(ascii: "0")) { guard digits() else { throw error("a number needs digits") } }
            if consume(UInt8(ascii: ".")) { guard digits() else { throw error("a number needs digits after \".\"") } }
            if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
                if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
                guard digits() else { throw error("a number needs digits in its exponent") }
            }
            return .number(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self))
        }

        /// Skips digits; whether there was one.
        private mutating func digits() -> Bool {
            let start = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
            return position > start
        }

        private mutating func literal(_ word: StaticString, _ value: ManifestValue) throws(SyntaxError) -> ManifestValue {
            let length = word.utf8CodeUnitCount
            guard position + length <= bytes.count,
                  UnsafeBufferPointer(rebasing: bytes[position..<position + length]).elementsEqual(
                      UnsafeBufferPointer(start: word.utf8Start, count: length)) else { throw error("unexpected character") }
            position += length
            return value
        }

        mutating func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case 0x20, 0x0A, 0x0D, 0x09: position += 1
                default: return
                }
            }
        }

        private mutating func consume(_ byte: UInt8) -> Bool {
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        private mutating func noteLeniency(at offset: Int) {
            if firstLeniency == nil { firstLeniency = offset }
        }

        /// `message`, at the current line and column.
        func error(_ message: String) -> SyntaxError {
            let found = position < bytes.count ? " \(Character(Unicode.Scalar(bytes[position])).debugDescription)" : ""
            return SyntaxError(description: "\(message)\(found) at \(place(of: position))")
        }

        /// The line and column of byte `offset`: `line 3, column 7`.
        func place(of offset: Int) -> String {
            let before = UnsafeBufferPointer(rebasing: bytes[..<min(offset, bytes.count)])
            let line = before.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
            let column = offset - (before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
            return "line \(line), column \(column)"
        }
    }
}

