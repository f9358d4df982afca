import Testing
@testable import MigrationExplorer

/// Output kept for reports: both ends, and how much was left out between them.
@Suite("Capped output")
struct CappedOutputTests {
    func capture(_ chunks: [String], limit: Int) async -> (lines: [String], streamed: [String]) {
        let streamed = Lines()
        var output = CappedOutput(limit: limit) { streamed.append($0) }
        for chunk in chunks { Array(chunk.utf8).withUnsafeBytes { output.append($0) } }
        output.finish()
        return (output.lines, streamed.all)
    }

    @Test func shortOutputIsKeptWholeAndStreamedLineByLineAcrossChunks() async {
        let (lines, streamed) = await capture(["one\ntw", "o\nthree"], limit: 64)
        #expect(lines == ["one", "two", "three"])
        #expect(streamed == ["one", "two", "three"])
    }

    @Test func longOutputKeepsTheFirstAndLastBytesAndSaysHowManyWereLeftOut() async {
        let (lines, _) = await capture(["aaaa\n", String(repeating: "b", count: 100) + "\n", "cc\nzz\n"], limit: 5)
        #expect(lines == ["aaaa", "… 102 bytes left out …", "c", "zz"])
    }

    @Test func aLineLongerThanTheLimitIsStreamedInPieces() async {
        let (_, streamed) = await capture([String(repeating: "x", count: 10)], limit: 4)
        #expect(streamed == ["xxxx", "xxxx", "xx"])
    }
}

/// Lines collected from another thread.
private final class Lines: @unchecked Sendable {
    private(set) var all: [String] = []
    func append(_ line: String) { all.append(line) }
}
