import Foundation

/// What lenient JSON readers accept but a strict one refuses: a key that appears twice in one
/// object, and a comma before a closing `}` or `]`.
///
/// `JSONDecoder` and `JSONSerialization` silently keep one of two duplicate keys (which one
/// differs between readers) and, on Linux, accept trailing commas, so a store file or manifest
/// with either would be read one way here and another way (or not at all) by `jq` or Python.
/// Both are refused instead.
///
/// ```swift
/// StrictJSON.problem(in: Data(#"{"a": 1, "a": 2}"#.utf8))   // "the key \"a\" appears twice"
/// StrictJSON.problem(in: Data(#"{"a": [1,]}"#.utf8))        // "a trailing comma before \"]\" in \"a\"; remove it"
/// ```
package enum StrictJSON {
    /// What is wrong, naming the dotted path of the key or object (`domains.default.lastMigratedVersion`),
    /// or `nil`. Malformed JSON is left to the decoder to report.
    package static func problem(in data: Data) -> String? {
        data.withUnsafeBytes { problem(in: $0.bindMemory(to: UInt8.self)) }
    }

    /// An open object (with the keys seen so far) or array.
    private struct Container {
        var keys: Set<[UInt8]>?
        var expectsKey = true
        var currentKey: String?
    }

    private static func problem(in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var open: [Container] = []
        var index = 0
        var afterComma = false
        /// The dotted path of the innermost open container, or of `key` in it.
        func path(_ key: String? = nil) -> String {
            (open.dropLast().compactMap(\.currentKey) + (key.map { [$0] } ?? [])).joined(separator: ".")
        }
        while index < bytes.count {
            let byte = bytes[index]
            let isSpace = byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
            if afterComma, byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                let closing = byte == UInt8(ascii: "}") ? "}" : "]"
                let container = path()
                return "a trailing comma before \"\(closing)\" " + (container.isEmpty ? "at the top level" : "in \"\(container)\"") + "; remove it"
            }
            if !isSpace { afterComma = false }
            switch byte {
            case UInt8(ascii: "{"): open.append(Container(keys: []))
            case UInt8(ascii: "["): open.append(Container(keys: nil))
            case UInt8(ascii: "}"), UInt8(ascii: "]"): _ = open.popLast()
            case UInt8(ascii: ","):
                afterComma = true
                if !open.isEmpty { open[open.count - 1].expectsKey = true }
            case UInt8(ascii: ":"): if !open.isEmpty { open[open.count - 1].expectsKey = false }
            case UInt8(ascii: "\""):
                let start = index + 1
                index = start
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                guard index < bytes.count else { return nil }
                if let top = open.last, let keys = top.keys, top.expectsKey {
                    let key = Array(bytes[start..<index])
                    let name = String(decoding: key, as: UTF8.self)
                    if keys.contains(key) { return "the key \"\(path(name))\" appears twice" }
                    open[open.count - 1].keys?.insert(key)
                    open[open.count - 1].currentKey = name
                }
            default: break
            }
            index += 1
        }
        return nil
    }
}
