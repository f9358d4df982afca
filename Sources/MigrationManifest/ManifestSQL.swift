import Foundation
import MigrationCore

/// A manifest's `sql`: statements for the app's database, to run in the transaction that
/// records their migration. This library has no database; whoever loads a manifest turns
/// them into a body (`MigrationSQLite`'s `ManifestSQL.inSQLiteStore` runs them in a
/// `SQLiteMigrationStore`'s transaction).
///
/// ```swift
/// let manifest = try Manifest.load(path: "manifest.json", sql: { sql, command in
///     { context in context.log("would run \(sql.statements)"); try command(context) }
/// })
/// ```
public struct ManifestSQL: Sendable {
    /// Turns the statements and the migration's body for its `run` (a body that does nothing
    /// when it has none) into the migration's body. The command should run in the same
    /// transaction, after the SQL, so that its failure undoes the SQL.
    public typealias Runner = @Sendable (ManifestSQL, _ command: @escaping MigrationBody) -> MigrationBody

    /// One or more SQL statements.
    public let statements: String
    /// The migration, as reports name it: `version 1.1 "Pin notes"`.
    public let migration: String

    /// The runner for code that only reads manifests: a body that fails, saying why.
    public static let unavailable: Runner = { sql, _ in
        { _ in throw ManifestSQLUnavailable(migration: sql.migration) }
    }
}

/// A manifest's SQL run where no database store can run it: the error of a body made by
/// ``ManifestSQL/unavailable``.
///
/// ```swift
/// let manifest = try Manifest.load(path: "manifest.json")   // no SQL runner
/// // a migration with "sql" then fails: version 1.1 "Pin notes" runs SQL: run it with migration-explorer --sqlite FILE
/// ```
public struct ManifestSQLUnavailable: Error, Sendable, Equatable, CustomStringConvertible {
    /// The migration, as reports name it: `version 1.1 "Pin notes"`.
    public let migration: String
    /// The migration, and how to run it.
    public var description: String { "\(migration) runs SQL: run it with migration-explorer --sqlite FILE" }
}
