/// Pretty-printed JSON written as it is produced, laid out byte for byte as
/// ``JSONReports/encode(_:)`` lays it out (`JSONEncoder` with `[.prettyPrinted, .sortedKeys,
/// .withoutEscapingSlashes]`, an empty container as `[]` or `{}`), for documents too big
/// to build as a tree first (a plan of 100,000 migrations): nothing is kept but a small buffer,
/// handed to `flush` whenever it fills and once at the end.
///
/// Callers give each object's keys in ascending order, as `.sortedKeys` would.
///
/// ```swift
/// var bytes: [UInt8] = []
/// var writer = JSONWriter { bytes += $0 }
/// writer.object { object in
///     object.field("name") { $0.string("Notes") }
///     object.field("tags") { $0.array(["a", "b"]) { $0.string($1) } }
/// }
/// writer.finish()   // {\n  "name" : "Notes",\n  "tags" : [\n    "a",\n    "b"\n  ]\n}
/// ```
///
/// `compact` writes the same document on one line, as `JSONEncoder` without `.prettyPrinted`
/// does (`{"name":"Notes","tags":["a","b"]}`): one document a line, for `plan --watch --json`.
struct JSONWriter {
    private var buffer: [UInt8] = []
    private let flush: ([UInt8]) -> Void
    /// Whether the document is written on one line, with no space.
    private let compact: Bool
    private var depth = 0
    /// Whether the container being written has no member yet.
    private var isEmpty = true
    #if DEBUG
    /// The last key of each open object, to check that keys come sorted.
    private var lastKeys: [String] = []
    #endif

    /// A buffer of this many bytes is handed on.
    private static let chunk = 1 << 16

    init(compact: Bool = false, flush: @escaping ([UInt8]) -> Void) {
        self.compact = compact
        self.flush = flush
        buffer.reserveCapacity(Self.chunk + 1024)
    }

    /// Hands on whatever is still buffered.
    mutating func finish() {
        flush(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    /// An object; `fields` writes its members with ``field(_:_:)``, keys in ascending order.
    mutating func object(_ fields: (inout JSONWriter) -> Void) {
        open(UInt8(ascii: "{"))
        #if DEBUG
        lastKeys.append("")
        #endif
        fields(&self)
        #if DEBUG
        lastKeys.removeLast()
        #endif
        close(UInt8(ascii: "}"))
    }

    /// One member of the object being written: its key, then the value `value` writes.
    mutating func field(_ key: String, _ value: (inout JSONWriter) -> Void) {
        #if DEBUG
        let previous = lastKeys.last
        precondition(previous.map { $0 < key } == true, "JSON keys must come in ascending order, in an object: \(key) after \(previous ?? "no object")")
        lastKeys[lastKeys.count - 1] = key
        #endif
        member()
        string(key)
        buffer.append(contentsOf: (compact ? ":" : " : ").utf8)
        value(&self)
    }

    /// An array of `elements`, each written by `element`.
    mutating func array<Elements: Sequence>(_ elements: Elements, _ element: (inout JSONWriter, Elements.Element) -> Void) {
        open(UInt8(ascii: "["))
        for item in elements {
            member()
            element(&self, item)
        }
        close(UInt8(ascii: "]"))
    }

    /// A string, escaped as `JSONEncoder` escapes it: `"` and `\`, the control characters
    /// (`\n`, `\u001f`, …); everything else as it is, in UTF-8.
    mutating func string(_ text: String) {
        buffer.append(UInt8(ascii: "\""))
        var text = text
        let needsEscaping = text.withUTF8 { bytes in bytes.contains(where: Self.mayNeedEscaping) }
        if needsEscaping {
            for scalar in text.unicodeScalars { appendEscaped(scalar) }
        } else {
            text.withUTF8 { buffer.append(contentsOf: $0) }
        }
        buffer.append(UInt8(ascii: "\""))
        flushIfFull()
    }

    /// Whether the byte is, or may start, a character written escaped: a control, a quote,
    /// a backslash, DEL; 0xC2 and 0xE2 start the C1 controls and the bidirectional overrides.
    private static func mayNeedEscaping(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F || byte == 0xC2 || byte == 0xE2
    }

    /// Appends `scalar` as JSON writes it in a string; what a terminal would act on is escaped.
    private mutating func appendEscaped(_ scalar: Unicode.Scalar) {
        if scalar.isASCII, scalar.value != 0x7F { return appendEscaped(UInt8(scalar.value)) }
        if scalar.actsOnTerminal {
            buffer.append(contentsOf: #"\u"#.utf8)
            for shift in stride(from: 12, through: 0, by: -4) { buffer.append(Self.hexDigit(UInt8((scalar.value >> UInt32(shift)) & 0xF))) }
        } else {
            buffer.append(contentsOf: String(scalar).utf8)
        }
    }

    private mutating func appendEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): buffer.append(contentsOf: #"\""#.utf8)
        case UInt8(ascii: "\\"): buffer.append(contentsOf: #"\\"#.utf8)
        case 0x08: buffer.append(contentsOf: #"\b"#.utf8)
        case 0x0C: buffer.append(contentsOf: #"\f"#.utf8)
        case UInt8(ascii: "\n"): buffer.append(contentsOf: #"\n"#.utf8)
        case UInt8(ascii: "\r"): buffer.append(contentsOf: #"\r"#.utf8)
        case UInt8(ascii: "\t"): buffer.append(contentsOf: #"\t"#.utf8)
        case ..<0x20:
            buffer.append(contentsOf: #"\u00"#.utf8)
            buffer.append(Self.hexDigit(byte >> 4))
            buffer.append(Self.hexDigit(byte & 0xF))
        default: buffer.append(byte)
        }
    }

    /// A string, or `null` for `nil`.
    mutating func string(_ text: String?) {
        if let text { string(text) } else { buffer.append(contentsOf: "null".utf8) }
    }

    mutating func integer(_ value: Int) {
        buffer.append(contentsOf: String(value).utf8)
    }

    mutating func bool(_ value: Bool) {
        buffer.append(contentsOf: (value ? "true" : "false").utf8)
    }

    mutating func null() {
        buffer.append(contentsOf: "null".utf8)
    }

    /// `0`…`9`, `a`…`f`.
    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    private mutating func open(_ bracket: UInt8) {
        buffer.append(bracket)
        depth += 1
        isEmpty = true
    }

    /// Starts a member of the open container: a comma after the previous one, a new line, the
    /// indent.
    private mutating func member() {
        if !isEmpty { buffer.append(UInt8(ascii: ",")) }
        isEmpty = false
        newLine()
    }

    private mutating func close(_ bracket: UInt8) {
        depth -= 1
        // An empty container is its two brackets: `[]`, `{}`.
        if !isEmpty { newLine() }
        buffer.append(bracket)
        isEmpty = false
        flushIfFull()
    }

    private mutating func newLine() {
        guard !compact else { return }
        buffer.append(UInt8(ascii: "\n"))
        buffer.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * depth))
    }

    private mutating func flushIfFull() {
        guard buffer.count >= Self.chunk else { return }
        flush(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
