import Testing
@testable import MigrationCore

@Suite("Version")
struct VersionTests {
    @Test("comparesNumerically: 1.10 comes after 1.9")
    func comparesNumerically() throws {
        #expect(try Version("1.10") > Version("1.9"))
        #expect(try Version("2") > Version("1.99.99"))
        #expect(try Version("0.10") > Version("0.9"))
    }

    @Test("insignificant zeros", arguments: [("1.0", "1.0.0"), ("1.01", "1.1"), ("1", "1.0"), (" 2.3 ", "2.3"), ("007", "7")])
    func insignificantZeros(left: String, right: String) throws {
        #expect(try Version(left) == Version(right))
        #expect(try Version(left).hashValue == Version(right).hashValue)
    }

    @Test("keeps the text as written, trimmed")
    func keepsText() throws {
        #expect(try Version("  1.0.0\n").text == "1.0.0")
    }

    @Test("rejects malformed versions with a typed error naming the input", arguments: [
        ("1.0-beta", VersionError.Reason.invalidCharacter("-")),
        ("v2", .invalidCharacter("v")),
        ("1..2", .emptyComponent),
        (".1", .emptyComponent),
        ("1.", .emptyComponent),
        ("", .empty),
        ("   ", .empty),
        ("1.é", .invalidCharacter("é")),
        ("99999999999999999999999", .componentTooLarge),
    ])
    func rejectsMalformed(input: String, reason: VersionError.Reason) {
        #expect(throws: VersionError(input: input, reason: reason)) { try Version(input) }
        let message = (try? Version(input)).map { _ in "" } ?? String(describing: VersionError(input: input, reason: reason))
        #expect(message.contains("\"\(input)\""))
    }

    @Test("sorting many versions gives numeric order")
    func sorting() throws {
        let sorted = try ["1.10", "1.9", "1.0.1", "0.10", "0.9", "1"].map { try Version($0) }.sorted().map(\.text)
        #expect(sorted == ["0.9", "0.10", "1", "1.0.1", "1.9", "1.10"])
    }
}
