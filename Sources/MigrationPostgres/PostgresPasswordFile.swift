import Foundation

/// libpq's password file: `PGPASSFILE`, or `~/.pgpass`, one `host:port:database:user:password`
/// a line. The first line whose four fields match gives the password; `*` in a field matches
/// anything, `\:` and `\\` stand for `:` and `\`, and a line starting with `#` is a comment.
/// As libpq does, a file that group or others may read or write is ignored, with a warning.
///
/// ```swift
/// PostgresPasswordFile.password(in: "db.internal:*:notes:deploy:s3cret", host: "db.internal",
///                               port: 5432, database: "notes", user: "deploy")   // "s3cret"
/// ```
public enum PostgresPasswordFile {
    /// The password of the first line of `text` that matches; `nil` when none does.
    public static func password(in text: String, host: String, port: Int, database: String, user: String) -> String? {
        let wanted = [host, String(port), database, user]
        for line in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let fields = Self.fields(of: line)
            guard fields.count >= 5 else { continue }
            if zip(fields.prefix(4), wanted).allSatisfy({ field, value in field.isWildcard || field.value == value }) {
                return fields[4].value
            }
        }
        return nil
    }

    /// Where the file is: `PGPASSFILE`, else `.pgpass` in `home`; `nil` with neither.
    static func path(environment: [String: String], home: String?) -> String? {
        if let given = environment["PGPASSFILE"], !given.isEmpty { return given }
        return home.map { ($0 as NSString).appendingPathComponent(".pgpass") }
    }

    /// The file's text; `nil` when it does not exist, cannot be read, is not a regular file, or
    /// group or others have any access to it (which `warn` is told).
    static func text(at path: String, warn: (String) -> Void) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        guard status.st_mode & S_IFMT == S_IFREG else {
            warn("password file \(path) is not a plain file: it is ignored")
            return nil
        }
        let access = status.st_mode & (S_IRWXG | S_IRWXO)
        guard access == 0 else {
            let mode = String(status.st_mode & 0o777, radix: 8)
            warn("password file \(path) has group or world access (mode \(mode)); permissions should be u=rw (0600) or less: it is ignored")
            return nil
        }
        return try? String(contentsOfFile: path, encoding: .utf8)
    }

    /// The fields of a line, split at each `:` that no `\` escapes, escapes removed; whether
    /// each was written as a bare `*`.
    private static func fields(of line: Substring) -> [(value: String, isWildcard: Bool)] {
        var fields: [(value: String, isWildcard: Bool)] = []
        var (field, raw) = ("", "")
        var escaped = false
        for character in line where character != "\r" {
            if escaped {
                (field, raw, escaped) = (field + String(character), raw + String(character), false)
            } else if character == "\\" {
                (raw, escaped) = (raw + "\\", true)
            } else if character == ":" {
                fields.append((field, raw == "*"))
                (field, raw) = ("", "")
            } else {
                (field, raw) = (field + String(character), raw + String(character))
            }
        }
        fields.append((field, raw == "*"))
        return fields
    }
}
