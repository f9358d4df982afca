/// The name of the schema a ``PostgresMigrationStore`` keeps its tables in, as a person types
/// it: a name PostgreSQL takes unquoted and means as written, so that `psql` finds the tables
/// under it (`SELECT * FROM fleet_marks.history`), and that is the store's own.
///
/// ```swift
/// let schema = try PostgresSchemaName("notes_migrations")
/// let store = PostgresMigrationStore(server: server, schema: schema)
/// ```
///
/// A name starts with a letter or an underscore and goes on with letters, digits, underscores
/// and dollar signs, in lowercase (PostgreSQL folds unquoted names to lowercase), at most 63
/// bytes (PostgreSQL cuts longer ones). It is not one of the key words PostgreSQL reserves
/// (`user`, `table`, …), not a system schema's (`pg_…`, `information_schema`), and not
/// `public`, where the app's own tables usually are.
public struct PostgresSchemaName: Sendable, Equatable, CustomStringConvertible {
    /// The name, as PostgreSQL spells it.
    public let name: String

    /// The schema used when none is named: `migration_explorer`.
    public static let `default` = PostgresSchemaName(checked: PostgresMigrationStore.defaultSchema)

    /// `name`, checked.
    ///
    /// ```swift
    /// let schema = try PostgresSchemaName("notes_migrations")
    /// _ = try PostgresSchemaName("Fleet")   // throws: PostgreSQL folds unquoted names to lowercase; write fleet
    /// ```
    /// - Throws: ``PostgresSchemaNameError`` saying why `name` cannot name the store's schema.
    public init(_ name: String) throws(PostgresSchemaNameError) {
        if let problem = Self.problem(with: name) { throw PostgresSchemaNameError(name: name, problem: problem) }
        self.name = name
    }

    private init(checked name: String) { self.name = name }

    public var description: String { name }

    /// The longest name PostgreSQL keeps whole (`NAMEDATALEN` - 1), in bytes.
    static let longest = 63

    private static func problem(with name: String) -> String? {
        guard let first = name.unicodeScalars.first else { return "the name is empty" }
        if name.utf8.count > longest { return "it is \(name.utf8.count) bytes long; PostgreSQL keeps the first \(longest) only" }
        if !isStart(first) { return "a name starts with a letter or an underscore" }
        if let other = name.unicodeScalars.first(where: { !isStart($0) && !("0"..."9").contains($0) && $0 != "$" }) {
            return "\"\(other)\" is not a letter, digit, underscore or dollar sign"
        }
        if name.unicodeScalars.contains(where: { ("A"..."Z").contains($0) }) {
            return "PostgreSQL folds unquoted names to lowercase; write \(name.lowercased())"
        }
        if reservedKeywords.contains(name) { return "\(name) is a key word PostgreSQL reserves" }
        if name.hasPrefix("pg_") || name == "information_schema" { return "PostgreSQL keeps that name for its own system schemas" }
        if name == "public" { return "public is where the app's own tables usually are; give the records a schema of their own" }
        return nil
    }

    /// What PostgreSQL takes first in an unquoted name: a letter (any character beyond ASCII
    /// counts as one) or an underscore.
    private static func isStart(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_" || !scalar.isASCII
    }

    /// PostgreSQL's key words that cannot name a schema unquoted (`pg_get_keywords()`'s
    /// categories R and T).
    private static let reservedKeywords: Set<String> = [
        "all", "analyse", "analyze", "and", "any", "array", "as", "asc", "asymmetric", "authorization", "binary", "both",
        "case", "cast", "check", "collate", "collation", "column", "concurrently", "constraint", "create", "cross",
        "current_catalog", "current_date", "current_role", "current_schema", "current_time", "current_timestamp",
        "current_user", "default", "deferrable", "desc", "distinct", "do", "else", "end", "except", "false", "fetch",
        "for", "foreign", "freeze", "from", "full", "grant", "group", "having", "ilike", "in", "initially", "inner",
        "intersect", "into", "is", "isnull", "join", "lateral", "leading", "left", "like", "limit", "localtime",
        "localtimestamp", "natural", "not", "notnull", "null", "offset", "on", "only", "or", "order", "outer", "overlaps",
        "placing", "primary", "references", "returning", "right", "select", "session_user", "similar", "some",
        "symmetric", "table", "tablesample", "then", "to", "trailing", "true", "union", "unique", "user", "using",
        "variadic", "verbose", "when", "where", "window", "with",
    ]
}

/// A name that cannot be a ``PostgresMigrationStore``'s schema (see ``PostgresSchemaName``).
public struct PostgresSchemaNameError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The name, as given.
    public let name: String
    /// Why it cannot be one, and what would do.
    public let problem: String

    public var description: String {
        name.isEmpty ? problem : "\"\(name)\" is not a schema name PostgreSQL takes unquoted: \(problem)"
    }
}
