import Foundation

extension URL {
    /// ``path``, worked out without what `URL.path` costs the first time a process asks for it
    /// (on Linux, ~150 µs: it builds a `Set` and so searches every protocol conformance the
    /// process has loaded). The percent-encoded path is the same string when it has no escape
    /// and no trailing slash, the store paths every launch gives; any other path is `path`.
    ///
    /// ```swift
    /// URL(fileURLWithPath: "/var/lib/notes/state.json").filePath  // "/var/lib/notes/state.json"
    /// ```
    var filePath: String {
        if #available(macOS 13, iOS 16, tvOS 16, watchOS 9, *) {
            let encoded = path(percentEncoded: true)
            let bytes = encoded.utf8
            if !bytes.contains(UInt8(ascii: "%")), bytes.count == 1 || bytes.last != UInt8(ascii: "/") { return encoded }
        }
        return path
    }
}
