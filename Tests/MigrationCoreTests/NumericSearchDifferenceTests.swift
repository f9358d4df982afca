import Foundation
import Testing
@testable import MigrationCore

/// Every case where this package's version order differs from (or agrees with) MTMigration's
/// `compare:options:NSNumericSearch`, row by row as the rules article's table lists them, checked
/// against `String.compare(_:options: .numeric)` on this platform.
@Suite("Versions beside NSNumericSearch")
struct NumericSearchDifferenceTests {
    /// One row of that table: two strings, how NSNumericSearch orders them, and how we do (`nil`:
    /// we refuse one of them as a version).
    struct Row: Sendable, CustomTestStringConvertible {
        let left, right: String
        let numericSearch: ComparisonResult
        let ours: ComparisonResult?
        var testDescription: String { "\"\(left)\" vs \"\(right)\"" }
    }

    static let rows: [Row] = [
        Row(left: "1.10", right: "1.9", numericSearch: .orderedDescending, ours: .orderedDescending),
        Row(left: "1.01", right: "1.1", numericSearch: .orderedSame, ours: .orderedSame),
        Row(left: "1.0", right: "1.0.0", numericSearch: .orderedAscending, ours: .orderedSame),
        Row(left: " 1.0", right: "1.0", numericSearch: .orderedAscending, ours: .orderedSame),
        Row(left: "2.0b", right: "2.0", numericSearch: .orderedDescending, ours: nil),
        Row(left: "1.0-beta", right: "1.0", numericSearch: .orderedDescending, ours: nil),
    ]

    @Test(arguments: rows)
    func rowMatchesBothLibraries(row: Row) {
        #expect(row.left.compare(row.right, options: .numeric) == row.numericSearch)
        let ours: ComparisonResult? = {
            guard let left = try? Version(row.left), let right = try? Version(row.right) else { return nil }
            return left < right ? .orderedAscending : left == right ? .orderedSame : .orderedDescending
        }()
        #expect(ours == row.ours)
    }

    @Test func migrationAtTrailingZeroRunsInAnAppWithoutIt() {
        // MTMigration: "1.0.0" > "1.0" by NSNumericSearch, so the block never runs in app 1.0.
        var ran = false
        Migrator(appVersion: "1.0", store: InMemoryMigrationStore()).migrateToVersion("1.0.0") { ran = true }
        #expect(ran)
    }

    @Test func updateFromOnePointZeroToOnePointZeroPointZeroIsNoUpdate() {
        // MTMigration compares the strings, so 1.0 → 1.0.0 fires applicationUpdateBlock.
        let store = InMemoryMigrationStore(state: MigrationState(lastAppVersion: "1.0"))
        var fired = false
        Migrator(appVersion: "1.0.0", store: store).applicationUpdateBlock { fired = true }
        #expect(!fired)
    }
}
