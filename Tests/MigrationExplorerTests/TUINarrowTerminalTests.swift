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

    func session() throws -> Session {
        Session(explorer: try Explorer(app: DemoApp.make(dataFolder: folder), options: ExplorerOptions()))
    }

    @Test("a run's report keeps each step's status, label start and elapsed time on its line, the title cut first", arguments: [60, 80])
    func theRunReportCutsTheTitleFirst(width: Int) async throws {
        var session = try session()
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
    func theFooterKeepsTheKeysThatMatter(size: Size) throws {
        let footer = Render.screen(try session().state, size: size, unicode: true).text.components(separatedBy: "\n")[size.height - 1]
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

    @Test func aRunningCommandsLineCutsTheCommandBeforeItsTimeAndOutput() throws {
        var state = try session().state
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
}
