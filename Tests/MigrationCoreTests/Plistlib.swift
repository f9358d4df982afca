import Foundation
import MigrationTestSupport

/// Python's `plistlib`: another tool that writes and reads preferences plists, binary or XML,
/// so that the property-list store is checked against files it did not write itself.
enum Plistlib {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// What `plistlib` reads from a file: its format and each key's value, as Python prints it.
    struct Contents: Equatable {
        /// `binary` or `xml`.
        let format: String
        let values: [String: String]
    }

    /// Writes the Python dictionary `literal` (where `datetime` is in scope) to `url` as a
    /// `binary` or `xml` plist.
    static func write(_ literal: String, to url: URL, format: String) throws {
        _ = try python("""
        import datetime, plistlib, sys
        fmt = plistlib.FMT_BINARY if sys.argv[2] == "binary" else plistlib.FMT_XML
        with open(sys.argv[1], "wb") as f:
            plistlib.dump(\(literal), f, fmt=fmt, sort_keys=False)
        """, url.path, format)
    }

    /// Reads the plist at `url`; data values (the history) show as their length.
    static func read(_ url: URL) throws -> Contents {
        let output = try python("""
        import json, plistlib, sys
        raw = open(sys.argv[1], "rb").read()
        values = plistlib.loads(raw)
        shown = {k: (f"<{len(v)} bytes>" if isinstance(v, bytes) else f"{type(v).__name__} {v!r}") for k, v in values.items()}
        print(json.dumps({"format": "binary" if raw.startswith(b"bplist00") else "xml", "values": shown}))
        """, url.path)
        let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
        guard let format = object?["format"] as? String, let values = object?["values"] as? [String: String] else {
            throw Failure(description: "unexpected output from python3: \(output)")
        }
        return Contents(format: format, values: values)
    }

    private static func python(_ script: String, _ arguments: String...) throws -> String {
        let process = SpawnedProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "python3 exited with status \(process.terminationStatus): \(errorText)")
        }
        return text
    }
}
