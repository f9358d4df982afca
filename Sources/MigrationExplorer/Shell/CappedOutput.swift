import Foundation

/// A command's output as it arrives: each complete line is handed on at once, and only the
/// first and last `limit` bytes are kept for the report, so a command that prints 100 MB
/// costs 128 KiB.
///
/// ```swift
/// var output = CappedOutput(limit: 4) { print("live:", $0) }
/// Array("one\ntwo\nthree\n".utf8).withUnsafeBytes { output.append($0) }
/// output.finish()
/// output.lines   // ["one", "… 6 bytes left out …", "ree"]
/// ```
struct CappedOutput: Sendable {
    /// How much of each end a report keeps by default: 64 KiB.
    static let defaultLimit = 64 * 1024

    let limit: Int
    private let onLine: @Sendable (String) -> Void
    private var head: [UInt8] = []
    private var tail: [UInt8] = []
    private var partialLine: [UInt8] = []
    /// Every byte the command wrote.
    private(set) var total = 0

    init(limit: Int = CappedOutput.defaultLimit, onLine: @escaping @Sendable (String) -> Void = { _ in }) {
        self.limit = limit
        self.onLine = onLine
    }

    /// Bytes left out of the report: all but the first and last `limit`.
    var leftOut: Int { total - head.count - min(tail.count, limit) }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return }
        total += bytes.count
        let toHead = min(bytes.count, limit - head.count)
        head.append(contentsOf: UnsafeRawBufferPointer(start: start, count: toHead))
        tail.append(contentsOf: UnsafeRawBufferPointer(start: start + toHead, count: bytes.count - toHead))
        if tail.count > 2 * limit { tail.removeFirst(tail.count - limit) }
        var offset = 0
        while offset < bytes.count {
            let remaining = bytes.count - offset
            guard let found = memchr(start + offset, Int32(UInt8(ascii: "\n")), remaining) else {
                addToLine(UnsafeRawBufferPointer(start: start + offset, count: remaining))
                return
            }
            let length = start.distance(to: UnsafeRawPointer(found)) - offset
            addToLine(UnsafeRawBufferPointer(start: start + offset, count: length))
            emitPartialLine()
            offset += length + 1
        }
    }

    /// Adds to the line being read; a line longer than the limit is handed on in pieces
    /// rather than held whole.
    private mutating func addToLine(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while partialLine.count + bytes.count - offset >= limit {
            let piece = limit - partialLine.count
            partialLine.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + piece)]))
            emitPartialLine()
            offset += piece
        }
        partialLine.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[offset...]))
    }

    /// Hands on a last line that did not end with a newline.
    mutating func finish() {
        if !partialLine.isEmpty { emitPartialLine() }
    }

    /// The kept output as lines, with `… N bytes left out …` between the two ends when the
    /// middle was dropped.
    var lines: [String] {
        guard leftOut > 0 else { return Self.split(head + tail) }
        return Self.split(head) + ["… \(leftOut) bytes left out …"] + Self.split(Array(tail.suffix(limit)))
    }

    private mutating func emitPartialLine() {
        onLine(String(decoding: partialLine, as: UTF8.self))
        partialLine.removeAll(keepingCapacity: true)
    }

    private static func split(_ bytes: [UInt8]) -> [String] {
        guard !bytes.isEmpty else { return [] }
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if bytes.last == UInt8(ascii: "\n") { lines.removeLast() }
        return lines.map { String(decoding: $0, as: UTF8.self) }
    }
}
