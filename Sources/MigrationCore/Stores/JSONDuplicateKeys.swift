import Foundation

/// Finds a key that appears twice in one JSON object. `JSONDecoder` silently keeps one of
/// them (and which one differs between readers), so a store file with a duplicate key is
/// refused rather than read one way here and another way by `jq` or Python.
enum JSONDuplicateKeys {
    /// The dotted path of the first duplicate key (`domains.default.lastMigratedVersion`), or
    /// `nil`. Malformed JSON is left to the decoder to report.
    static func first(in data: Data) -> String? {
        data.withUnsafeBytes { first(in: $0.bindMemory(to: UInt8.self)) }
    }

    /// An open object (with the keys seen so far) or array.
    private struct Container {
        var keys: Set<[UInt8]>?
        var expectsKey = true
        var currentKey: String?
    }

    private static func first(in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var open: [Container] = []
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"): open.append(Container(keys: []))
            case UInt8(ascii: "["): open.append(Container(keys: nil))
            case UInt8(ascii: "}"), UInt8(ascii: "]"): _ = open.popLast()
            case UInt8(ascii: ","): if !open.isEmpty { open[open.count - 1].expectsKey = true }
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
                    if keys.contains(key) { return (open.compactMap(\.currentKey).dropLast() + [name]).joined(separator: ".") }
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
