import Foundation
import MigrationCore
import Testing
@testable import MigrationExplorer

/// Narrow terminals keep what carries the meaning: a step's status and elapsed time before
/// its title, and in the footer the keys that matter (or where to find them).
@Suite("Terminal UI: narrow terminals")
final class TUINarrowTerminalTests {
    let folder: URL

    init() throws { folder = try makeTemporaryFolder() }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func session() async throws -> Session {
        await Session.opened(explorer: try Explorer(app: DemoApp.make(dataFolder: folder), options: ExplorerOptions()))
    }

    @Test("a run's report keeps each step's status, label start and elapsed time on its line, the title cut first", arguments: [60, 80])
    func theRunReportCutsTheTitleFirst(width: Int) async throws {
        var session = try await session()
        let size = Size(width: width, height: 40)
        await session.press(.runPending, size: size)
        let screen = Render.screen(session.state, size: size, unicode: true).text
        // The box's rows: what lies between its two sides.
        let boxed = screen.components(separatedBy: "\n").compactMap { line -> String? in
            let parts = line.split(separator: "│", omittingEmptySubsequences: false)
            return parts.count >= 3 ? parts[1].trimmingCharacters(in: .whitespaces) : nil
        }
        let steps = boxed.filter { $0.contains("✓ succeeded") }
        #expect(steps.count == 7, "\(screen)")
        for inside in steps {
            #expect(inside.range(of: #"(version|build|onUpdate|onBuildUpdate) .* [0-9.]+ (ms|s|µs)$"#, options: .regularExpression) != nil,
                    "status, label and elapsed on one line: \(inside)")
        }
    }

    @Test("the footer keeps run, dry-run and reset, or says where the keys are", arguments: [Size(width: 50, height: 14), Size(width: 60, height: 20)])
    func theFooterKeepsTheKeysThatMatter(size: Size) async throws {
        let footer = Render.screen(try await session().state, size: size, unicode: true).text.components(separatedBy: "\n")[size.height - 1]
        for key in ["d dry-run", "r run", "x reset", "q quit"] {
            #expect(footer.contains(key), "\(footer)")
        }
        #expect(footer.contains("? help") || footer.contains("? keys"), "\(footer)")
    }

    @Test func aFooterWithNoRoomForTheKeysThatMatterPointsToHelp() {
        let hints = [Footer.Hint(text: "d dry-run", priority: .essential), Footer.Hint(text: "r run", priority: .essential),
                     Footer.Hint(text: "? help", priority: .always, crowded: "? keys"), Footer.Hint(text: "q quit", priority: .always)]
        #expect(Footer.fit(hints, width: 20, ellipsis: "…") == "…  ? keys  q quit")
    }

    @Test func aRunningCommandsLineCutsTheCommandBeforeItsTimeAndOutput() async throws {
        var state = try await session().state
        let now = ContinuousClock.now
        for update in [RunUpdate.began(now), .commandStarted("0.2 `sh '/tmp/tmp.8KShaW3Jrl/long.sh' --every-account`", at: now), .output("recomputed 2 of 100")] {
            _ = Update.handle(.run(update), &state, layout: Layout(Size(width: 60, height: 20)))
        }
        _ = Update.handle(.tick(now + .milliseconds(1250)), &state, layout: Layout(Size(width: 60, height: 20)))
        let size = Size(width: 60, height: 20)
        let line = Render.screen(state, size: size, unicode: true).text.components(separatedBy: "\n")[size.height - 2]
        #expect(line.contains("│ 1.25 s │ recomputed 2 of 100"), "\(line)")
        #expect(line.hasPrefix(" 0.2 `sh '/tmp/"), "\(line)")
    }
    // MARK: 60×18

    static let narrow = Size(width: 60, height: 18)

    func rows(_ session: Session, size: Size = narrow) -> [String] {
        Render.screen(session.state, size: size, unicode: true).text.components(separatedBy: "\n")
    }

    /// The rows of the open box: what lies between its two sides, trimmed.
    func boxed(_ rows: [String]) -> [String] {
        rows.compactMap { line in
            let parts = line.split(separator: "│", omittingEmptySubsequences: false)
            return parts.count >= 3 ? parts[1].trimmingCharacters(in: .whitespaces) : nil
        }
    }

    @Test func theMatrixKeepsRunsNewAndItsLegendAt60x18() async throws {
        var session = try await session()
        await session.press(.matrix, size: Self.narrow)
        let inside = boxed(rows(session))
        let header = try #require(inside.first { $0.hasPrefix("FROM") }, "\(inside)")
        #expect(header.contains("RUNS") && header.contains("NEW"), "\(header)")
        for (label, runs, new) in [("fresh install", 6, 3), ("0.5", 5, 3), ("0.8", 3, 3), ("0.9", 2, 2), ("0.10", 1, 1)] {
            let row = try #require(inside.first { $0.replacingOccurrences(of: "▶ ", with: "").hasPrefix(label + " ") }, "\(label): \(inside)")
            #expect(row.range(of: "\\b\(runs) +\(new)\\b", options: .regularExpression) != nil, "\(label) runs \(runs), \(new) new: \(row)")
        }
        let legend = inside.joined(separator: " ")
        for text in ["runs, failed last time", "out of order: the device is past it, so it never runs"] {
            #expect(legend.contains(text), "the legend wraps, whole: \(inside)")
        }
        #expect(!inside.contains { $0.hasSuffix("…") }, "nothing is cut: \(inside)")
    }

    @Test func arrowsScrollTheMatrixSideways() async throws {
        var session = try await session()
        await session.press(.matrix, size: Self.narrow)
        func header() -> String { boxed(rows(session)).first { $0.hasPrefix("FROM") } ?? "no matrix header" }
        #expect(header().contains(" 0.5 ") && !header().contains("1.2"), "\(header())")
        for key in [Key.right, .character("l"), .right, .right, .right, .right, .right, .right] {
            await session.handle(key, size: Self.narrow)
        }
        #expect(header().contains("1.2") && !header().contains(" 0.5 "), "\(header())")
        #expect(header().contains("RUNS"), "RUNS and NEW stay: \(header())")
        await session.handle(.left, size: Self.narrow)
        await session.handle(.character("h"), size: Self.narrow)
        for _ in 0..<8 { await session.handle(.left, size: Self.narrow) }
        #expect(header().contains(" 0.5 "), "\(header())")
        guard case .matrix = session.state.overlay else { Issue.record("the arrows closed the matrix"); return }
    }

    @Test("the header keeps both builds whole, beside their versions when narrow", arguments: [60, 80])
    func theHeaderKeepsTheBuilds(width: Int) async throws {
        let deep = folder.appendingPathComponent("a-rather-long-folder-name/and-another-one/w")
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        let store = deep.appendingPathComponent("state.json").path
        let options = ExplorerOptions(from: try Version("0.9"), fromBuild: try Version("205"), toBuild: try Version("210"), store: .jsonFile(store))
        let session = await Session.opened(explorer: try Explorer(app: DemoApp.make(dataFolder: folder), options: options))
        let header = rows(session, size: Size(width: width, height: 18))[0]
        #expect(header.contains(width < 80 ? " Notes 0.9 (205) → 1.0 (210) " : " Notes 0.9 → 1.0 (build 205 → 210) "), "\(header)")
        #expect(header.contains("sandbox") && header.hasSuffix("state.json "), "\(header)")
    }

    @Test("statuses show whole, the titles get the room", arguments: [60, 80, 100])
    func statusesShowWhole(width: Int) async throws {
        let session = try await session()
        let table = rows(session, size: Size(width: width, height: 24))
        let row = try #require(table.first { $0.contains("version 0.7") }, "\(table)")
        #expect(row.contains(width >= 80 ? "○ skipped: out of order" : "○ out of order"), "\(row)")
        #expect(row.contains("Trim spaces around titles"), "\(row)")
        let statuses = table.compactMap { line in line.range(of: #" (version|build) "#, options: .regularExpression).map { line[..<$0.lowerBound] } }
        #expect(statuses.count >= 10 && statuses.allSatisfy { !$0.contains("…") }, "no status is cut:\n\(table.joined(separator: "\n"))")
    }

    @Test func theResetQuestionKeepsTheStoreAndItsQuestionMarkTogether() async throws {
        let deep = folder.appendingPathComponent("a-rather-long-folder-name/and-another-one/and-a-third-one-to-pass-60")
        try FileManager.default.createDirectory(at: deep, withIntermediateDirectories: true)
        let store = deep.appendingPathComponent("state.json").path
        try FileMigrationStore(url: URL(fileURLWithPath: store)).save(MigrationState(lastMigratedVersion: "0.9", lastAppVersion: "0.9"))
        var session = await Session.opened(explorer: try Explorer(app: DemoApp.make(dataFolder: folder), options: ExplorerOptions(store: .jsonFile(store))))
        await session.press(.reset, size: Self.narrow)
        let inside = boxed(rows(session))
        #expect(!inside.contains { $0.hasPrefix("?") }, "no line starts with the question mark: \(inside)")
        #expect(inside.contains { $0.hasPrefix("Reset ") && $0.hasSuffix("state.json?") }, "\(inside)")
        #expect(inside.joined(separator: " ").contains("It forgets last migrated version 0.9"), "\(inside)")
    }
}
